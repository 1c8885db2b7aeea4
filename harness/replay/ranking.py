"""A replay's run, read from what it wrote (summary.json, replay.json): how long the operator's
own clients hung beside the model and their incident, when the load balancer noticed, and the
cures ranked by the time each saved, each with its cost and the model's figures beside the
measured ones. A cell the model says outlasts the run is shown still waiting, its retransmissions
so far held to the model's ladder (signals/retransmissions/ladder.py). Pure."""
import dataclasses
from collections.abc import Mapping
from typing import Any

from ..measure.summary_record import Window
from ..signals.machine import lateness as saturation
from ..signals.retransmissions import lateness as late_report
from .build import YOURS


@dataclasses.dataclass(frozen=True)
class Row:
    cell: str
    change: str
    cost: str
    back_s: float | None      # the death to the cell's client working again (None: not within the observation)
    error_s: float | None     # the death to the client's error (None: it saw none)
    error: str
    model: tuple[float, float] | None   # (earliest, latest) s of the client's error, the model's (None: no error)
    within_model: bool | None  # None: the run ended before the model's window opened
    saved_s: float | None     # the operator's own cell's time less this one's (None where either is unknown)
    busy_while_late: float | None = None   # late on a machine with no idle CPU: its busy share
    kernel_in_window: tuple[float, float] | None = None  # late by its report only: (kernel gave up s, reported after s)
    report: dict[str, Any] | None = None             # that report judged against its runtime's lag (report_lag.py)
    model_back: tuple[float, float, float] | None = None        # (expected, earliest, latest) s of back again, the model's before the run
    model_error_s: float | None = None     # the model's expected error before the run
    ladder: tuple[int, bool] | None = None            # still waiting: (retransmissions seen, all in the model's ladder)
    measured_by: str = ""                  # a cell the lab's probe ran in the driver's stead: says so

    @property
    def still_waiting(self) -> bool:
        return self.error_s is None and self.within_model is None


@dataclasses.dataclass(frozen=True)
class Ranking:
    yours: Row
    cures: tuple[Row, ...]    # the most time saved first
    lb_noticed_s: float | None
    lb_model: tuple[float, float] | None
    incident_recovered_s: float | None
    observed_s: float
    saved_against_model: bool = False     # the operator's own cell still waited: saved against the model's back
    report_lags: tuple[tuple[str, float, str], ...] = ()               # ((runtime, lag s, the cell that measured it), ...) this run
    def headline(self) -> str:
        y = self.yours
        if y.back_s is not None:
            hung = f"Your clients hung {y.back_s:.1f} s (model {error_window(y.model)} for the error"
        elif y.still_waiting and y.model_error_s is not None:
            hung = (f"Your clients were still waiting when the run ended, {self.observed_s:.0f} s after the death "
                    f"(the model: their error after ~{y.model_error_s:.1f} s, {error_window(y.model)}"
                    + (f"; {y.ladder[0]} retransmissions so far, {'each where' if y.ladder[1] else 'not all where'} "
                       "the model's ladder puts them" if y.ladder else ""))
        else:
            hung = (f"Your clients hung more than {self.observed_s:.0f} s (the observation's end; model "
                    f"{error_window(y.model)} for the error")
        parts = [hung]
        if self.incident_recovered_s is not None:
            parts.append(f", your incident {self.incident_recovered_s:.0f} s")
        parts.append(")")
        if self.lb_noticed_s is not None:
            parts.append(f"; the load balancer noticed at {self.lb_noticed_s:.1f} s")
            if self.lb_model:
                parts.append(f" (model {self.lb_model[0]:.1f}-{self.lb_model[1]:.1f} s)")
        return "".join(parts) + "."


def error_window(model: tuple[float, float] | None) -> str:
    """The model's window for a client's error in words: 'none' where the model expects no error
    (a client behind a proxy that ACKs, say), never a made-up 0.0-0.0 s."""
    return "none" if model is None else f"{model[0]:.1f}-{model[1]:.1f} s"


def _window(model: Mapping[str, float] | None) -> tuple[float, float, float] | None:
    return None if not model else (model["expected_s"], model["earliest_s"], model["latest_s"])


def row(cell: Mapping[str, Any], cure: Mapping[str, Any], yours_back: float | None) -> Row:
    probe = cell.get("probe") or {}
    back = probe.get("recover_s")
    predicted = Window.read(cell["predicted"], f"cell {cell['cell']!r}'s predicted") if cell.get("predicted") else None
    model = (predicted.earliest_s, predicted.latest_s) \
        if predicted and predicted.earliest_s is not None and predicted.latest_s is not None else None
    ladder = cell.get("ladder")
    error_model = cure.get("error") or {}
    return Row(cell["cell"], cure.get("change", "your settings"), cure.get("cost", ""), back, probe.get("detect_s"),
               probe.get("error") or "",
               model, probe.get("within_window"),
               None if back is None or yours_back is None else round(yours_back - back, 1),
               saturation.late_share(cell), late_report.kernel_in_window(cell), cell.get("report"),
               _window(cure.get("back")), error_model.get("expected_s"),
               (ladder["seen"], ladder["in_model"]) if ladder else None, cure.get("measured_by", ""))


def rank(summary: Mapping[str, Any], replay: Mapping[str, Any]) -> Ranking:
    cells = {cell["cell"]: cell for cell in summary["cells"]}
    if YOURS not in cells:
        raise ValueError("the run has no cell of the operator's own settings")
    cures = {cure["name"]: cure for cure in replay.get("cures", ())}
    model = replay.get("yours") or {}
    measured = (cells[YOURS].get("probe") or {}).get("recover_s")
    yours_back = measured if measured is not None else (model.get("back") or {}).get("expected_s")
    yours = row(cells[YOURS], {"error": model.get("error"), "back": model.get("back")}, measured)
    rows = [row(cells[name], cure, yours_back) for name, cure in cures.items() if name in cells]
    rows.sort(key=lambda r: (r.back_s is None, r.back_s if r.back_s is not None else 0.0))
    lb = cells[YOURS].get("lb") or {}
    noticed = lb.get("model") or {}
    return Ranking(yours, tuple(rows), lb.get("noticed_s"),
                   (noticed["earliest_s"], noticed["latest_s"]) if noticed else None,
                   (replay.get("incident") or {}).get("recovered"), summary.get("observed_s") or 0.0,
                   measured is None and yours_back is not None,
                   tuple((runtime, lag["lag_s"], lag["cell"]) for runtime, lag in (summary.get("report_lags") or {}).items()))
