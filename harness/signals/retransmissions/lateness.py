"""A cell whose error came after its model window although its kernel gave up inside it
(the signal's `kernel` entry: the last retransmission timer ss saw on the connection,
then the connection gone) is judged a second time: its report against the lag this run measured
for its runtime (report_lag.py). Its verdict says both, and one note says what that means."""
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .report_lag import IN_TIME, LATE


def kernel_in_window(cell: Mapping[str, Any]) -> tuple[float, float] | None:
    """(when the kernel gave up, s after the fault; how long after it the client reported) for a cell
    late by its report but not by its kernel; else None."""
    kernel = cell.get("kernel") or {}
    late = (cell.get("probe") or {}).get("within_window") is False
    return (kernel["gave_up_s"][1], kernel["reported_after_s"]) if late and kernel.get("in_window") else None


def phrase(gave_up_s: float, reported_after_s: float, report: Mapping[str, Any] | None = None) -> str:
    """'its kernel gave up in time, at 13.9 s; reported 1.6 s after it, in time for the JVM (its read timeout: +1.7 s)'."""
    said = f"its kernel gave up in time, at {gave_up_s:.1f} s; reported {reported_after_s:.1f} s after it"
    if not report:
        return said
    runtime, lag = report["runtime"], report["runtime_lag_s"]
    if report["verdict"] == IN_TIME:
        return f"{said}, in time for the {runtime} (its read timeout reported +{lag:.1f} s this run)"
    if report["verdict"] == LATE:
        return f"{said}, later than the {runtime}'s +{lag:.1f} s this run"
    return f"{said}; the {runtime}'s report lag unknown (no read-timeout cell of it ran)"


def reason(cell: Mapping[str, Any]) -> str:
    """phrase() for such a cell; '' otherwise (tables.py's verdict)."""
    found = kernel_in_window(cell)
    return "" if found is None else phrase(*found, cell.get("report"))


def late_reports(cells: Iterable[Mapping[str, Any]]) -> list[tuple[str, float, float]]:
    """[(cell name, kernel gave up s, reported after s), ...]."""
    found = ((c["cell"], kernel_in_window(c)) for c in cells)
    return [(cell, *times) for cell, times in found if times is not None]


def note(late: Sequence[tuple[str, float, float]]) -> str:
    """One paragraph naming the cells whose kernel gave up in the window and whose client reported
    late (late: late_reports()); '' for none."""
    if not late:
        return ""
    named = ", ".join(f"{name} +{after:.1f} s" for name, _, after in late)
    return (f"Reported late, ended in time ({named}): each one's kernel gave up inside the model's window, by "
            "its own account (the last retransmission timer ss saw on the connection, then the connection "
            "gone from ss's next read); the client reported the error that much after its kernel. Each is judged "
            "again against how late this run's read-timeout cells of the same runtime reported their own timer: "
            "within that, the lateness is the runtime's on this machine, not the model's.")


def summary_note(summary: Mapping[str, Any]) -> str:
    return note(late_reports(summary.get("cells", [])))
