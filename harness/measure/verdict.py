"""A cell's verdict and a run's, with three values as Jepsen's checkers have them: valid (the
measured outcome is the model's), invalid (it is not), unknown (the run cannot tell: it ended
before the model's window opened, was stopped first, or the client never worked before the fault).
Each says why, in words, and which of the run's files it read. A run's verdict composes its
cells': invalid if any cell is, else unknown if any is, else valid (Jepsen's compose-checker)."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from .predict import Window
from .summary_error import SummaryError

if TYPE_CHECKING:
    from .summary_record import RunStatus

VALID, INVALID, UNKNOWN = "valid", "invalid", "unknown"
VALUES = (VALID, INVALID, UNKNOWN)
WITHIN_WINDOW = {VALID: True, INVALID: False, UNKNOWN: None}     # the summary's older, two-valued field


class VerdictPart(TypedDict):
    """A verdict as summary.json has it."""
    value: str                       # valid, invalid or unknown
    why: str
    evidence: list[str]              # the run's files it read


@dataclasses.dataclass(frozen=True)
class Verdict:
    value: str                        # VALID, INVALID or UNKNOWN
    why: str
    evidence: tuple[str, ...] = ()    # the run's files it read, relative to the run's directory

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise ValueError(f"a verdict is one of {', '.join(VALUES)}, not {self.value!r}")

    @property
    def within_window(self) -> bool | None:
        return WITHIN_WINDOW[self.value]

    def as_json(self) -> VerdictPart:
        return {"value": self.value, "why": self.why, "evidence": list(self.evidence)}

    @classmethod
    def read(cls, part: Mapping[str, Any], where: str) -> Verdict:
        try:
            return cls(part["value"], part["why"], tuple(part.get("evidence") or ()))
        except (KeyError, TypeError, ValueError) as exc:
            raise SummaryError(f"{where}: a verdict needs a value ({', '.join(VALUES)}) and why: {exc}") from None


def of_cell(window: Window, detect_s: float | None, sent_s: float | None, never_worked: str | None,
            status: RunStatus, observed_s: float | None, evidence: tuple[str, ...]) -> Verdict:
    """A cell's first error after the fault (detect_s; sent_s: when the operation it ended was sent)
    against its model's window. Unknown where the run ended before the outcome was decided: no
    error yet where the model expects one and the run stopped on the way, or done watching before
    the window opened (a 15-minute hang in a 1-minute run); or the client never worked at all."""
    if never_worked:
        return Verdict(UNKNOWN, f"the client never worked before the fault ({never_worked})", evidence)
    if detect_s is None and window.expected_s is not None:
        if status.state != "completed":
            return Verdict(UNKNOWN, f"no error yet when the run {status.state} while {status.phase or 'running'}",
                           evidence)
        if observed_s is not None and window.earliest_s is not None and observed_s < window.earliest_s:
            return Verdict(UNKNOWN, f"no error in the {observed_s:.1f} s the run watched; the model's window "
                                    f"opens at {window.earliest_s:.2f} s", evidence)
    inside = window.contains(detect_s, sent_s)
    return Verdict(VALID if inside else INVALID, _why(window, detect_s, sent_s, inside), evidence)


def _why(window: Window, detect_s: float | None, sent_s: float | None, inside: bool) -> str:
    if window.expected_s is None or window.earliest_s is None or window.latest_s is None:
        return "no error, as the model says" if inside else f"an error at {detect_s:.2f} s where the model says none"
    span = f"{window.earliest_s:.2f}-{window.latest_s:.2f} s"
    late = window.late_send_s(sent_s)
    moved = f" (moved {late:.2f} s with its late send)" if late else ""
    if detect_s is None:
        return f"no error by the run's end; the model's window is {span}"
    where = "inside" if inside else "before" if detect_s - late < window.earliest_s else "after"
    return f"the error at {detect_s:.2f} s, {where} the model's window {span}{moved}"


def of_run(cells: Iterable[tuple[str, Verdict]]) -> Verdict:
    """The run's: invalid naming its invalid cells, else unknown naming its unknown ones, else valid."""
    judged = list(cells)
    read = tuple(dict.fromkeys(path for _, verdict in judged for path in verdict.evidence))
    for value, said in ((INVALID, "outside the model"), (UNKNOWN, "not decided")):
        named = [name for name, verdict in judged if verdict.value == value]
        if named:
            return Verdict(value, f"{len(named)} of {len(judged)} cell(s) {said}: {', '.join(named)}", read)
    if not judged:
        return Verdict(UNKNOWN, "no cell was judged (no fault step ran)")
    return Verdict(VALID, f"all {len(judged)} cell(s) in the model's window", read)
