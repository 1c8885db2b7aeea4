"""A cell is judged twice: its kernel's end (ss's witness, kernel_gave_up.py) against the model's
window, and its report against that end plus the report lag this run measured for the cell's
runtime: how long after its own timer was due a client of the same runtime reported a read
timeout (a cell whose error time is known exactly: sent + the timeout). A runtime with no such cell
in the run leaves the second judgement unknown. Pure: over summary.json's cells."""
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...load.clients import CLIENTS, DEFAULT_CLIENT

IN_TIME, LATE, UNKNOWN = "in time for its runtime", "later than its runtime's lag", "unknown"


def runtime_of(cell: Mapping[str, Any]) -> str:
    return CLIENTS[(cell.get("client") or {}).get("name", DEFAULT_CLIENT)].runtime


def timer_lag(cell: Mapping[str, Any]) -> float | None:
    """How long after its read timeout was due the cell reported it, or None when its error was not
    its read timeout's (or is not known exactly)."""
    probe, timeout = cell.get("probe") or {}, (cell.get("knobs") or {}).get("read_timeout_s") or 0.0
    basis = (cell.get("predicted") or {}).get("basis") or ""
    if not timeout or "kernel" in cell or not basis.startswith("application read timeout"):
        return None
    if probe.get("detect_s") is None or probe.get("sent_s") is None:
        return None
    return max(0.0, round(probe["detect_s"] - probe["sent_s"] - timeout, 3))


def lags(cells: Iterable[Mapping[str, Any]]) -> dict[str, tuple[float, str]]:
    """{runtime: (the largest report lag its exact cells showed, s; that cell's name)}."""
    found: dict[str, tuple[float, str]] = {}
    for cell in cells:
        lag = timer_lag(cell)
        if lag is not None and lag >= found.get(runtime_of(cell), (-1.0, ""))[0]:
            found[runtime_of(cell)] = (lag, cell["cell"])
    return found


def judge(cell: Mapping[str, Any], measured: Mapping[str, tuple[float, str]]) -> dict[str, Any] | None:
    """The cell's `report` entry beside its `kernel` one, or None for a cell without a kernel's end."""
    kernel = cell.get("kernel")
    if not kernel:
        return None
    runtime = runtime_of(cell)
    lag, source = measured.get(runtime, (None, None))
    if lag is None:
        verdict = UNKNOWN
    else:
        verdict = IN_TIME if kernel["reported_after_s"] <= lag + 0.0005 else LATE
    return {"runtime": runtime, "reported_after_s": kernel["reported_after_s"], "runtime_lag_s": lag,
            "lag_from": source, "verdict": verdict}


def annotate(cells: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each cell with a kernel's end gets its second judgement (`report`); the run's lags by runtime,
    {runtime: {"lag_s", "cell"}}, for summary.json's `report_lags`."""
    measured = lags(cells)
    for cell in cells:
        report = judge(cell, measured)
        if report:
            cell["report"] = report
    return {runtime: {"lag_s": lag, "cell": name} for runtime, (lag, name) in sorted(measured.items())}
