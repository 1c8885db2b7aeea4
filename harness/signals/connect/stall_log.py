"""The stalls a fault's loop printed into the target's log (faults/rx_stall.py): each one lies
between its 'block' and 'release' time, on the target's clock (the lab's)."""
import re
from collections.abc import Sequence

_LINE = re.compile(r"rx-stall (block|release) (\d+(?:\.\d+)?)")


def stalls(log_text: str) -> list[tuple[float, float]]:
    """[(block t, release t)] in order; a block without its release (the run ended) is left out."""
    result: list[tuple[float, float]] = []
    blocked: float | None = None
    for kind, t in _LINE.findall(log_text):
        if kind == "block":
            blocked = float(t)
        elif blocked is not None:
            result.append((blocked, float(t)))
            blocked = None
    return result


def overlaps(start: float, end: float, periods: Sequence[tuple[float, float]]) -> bool:
    """Whether [start, end] meets any of the periods."""
    return any(start <= stop and begin <= end for begin, stop in periods)
