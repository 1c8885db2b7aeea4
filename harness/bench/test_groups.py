"""The seconds each pytest-xdist group of the host part took (setup, call and teardown of its tests
together), read from pytest's `--durations=0` report: make bench-test writes them to
benchmarks/test-group-seconds.json, and tests/longest_first.py hands the groups out longest first."""
import json
import re
from collections.abc import Mapping
from pathlib import Path

DURATION = re.compile(r"^(\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(\S+?)(?:@(\S+))?$")
GROUP_SECONDS = Path(__file__).resolve().parents[2] / "benchmarks" / "test-group-seconds.json"


def group_seconds(output: str, grouped_only: bool = False) -> dict[str, float]:
    """{group: seconds} from the lines of pytest's durations report ('12.30s call tests/a.py::t@group');
    a test without a group (no --dist loadgroup) counts for its module, or, grouped_only (make test's
    output, whose guest and unit sessions report theirs too), not at all."""
    seconds: dict[str, float] = {}
    for line in output.splitlines():
        m = DURATION.match(line.strip())
        if m and (m.group(3) or not grouped_only):
            group = m.group(3) or m.group(2).split("::")[0]
            seconds[group] = seconds.get(group, 0.0) + float(m.group(1))
    return {group: round(s, 1) for group, s in sorted(seconds.items(), key=lambda item: (-item[1], item[0]))}


def read(path: Path = GROUP_SECONDS) -> dict[str, float]:
    """{group: seconds} as last written; {} without a readable record (every group then counts alike:
    only make test's order depends on it)."""
    try:
        return {str(group): float(s) for group, s in json.loads(path.read_text()).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def write(seconds: Mapping[str, float], path: Path = GROUP_SECONDS) -> Path:
    path.write_text(json.dumps(dict(seconds), indent=0) + "\n")
    return path
