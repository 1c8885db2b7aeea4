"""wrk's per-second counts, printed by images/client/wrk_per_second.lua."""
import re

LINE_RE = re.compile(r"wrk-second (\d+) (\d+)")


def per_second(text: str) -> dict[int, int]:
    """{unix second: responses}; seconds missing from the output had none."""
    counts: dict[int, int] = {}
    for m in LINE_RE.finditer(text):
        counts[int(m.group(1))] = counts.get(int(m.group(1)), 0) + int(m.group(2))
    return counts
