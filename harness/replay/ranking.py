"""A replay's run, read from what it wrote (summary.json, replay.json): how long the operator's
own clients hung beside the model and their incident, when the load balancer noticed, and the
cures ranked by the time each saved, each with its cost. Pure."""
import dataclasses

from ..signals.machine import lateness as saturation
from ..signals.retransmissions import lateness as late_report
from .build import YOURS


@dataclasses.dataclass(frozen=True)
class Row:
    cell: str
    change: str
    cost: str
    back_s: float             # the death to the cell's client working again (None: not within the observation)
    error_s: float            # the death to the client's error (None: it saw none)
    error: str
    model: tuple              # (earliest, latest) s of the client's error, the model's
    within_model: bool
    saved_s: float            # the operator's own cell's time less this one's (None where either is unknown)
    busy_while_late: float = None   # late on a machine with no idle CPU: its busy share (signals/machine/lateness.py)
    kernel_in_window: tuple = None  # late by its report only: (kernel gave up s, reported after s) (signals/retransmissions/lateness.py)


@dataclasses.dataclass(frozen=True)
class Ranking:
    yours: Row
    cures: tuple              # Rows, the most time saved first
    lb_noticed_s: float
    lb_model: tuple
    incident_recovered_s: float
    observed_s: float

    def headline(self):
        hung = (f"{self.yours.back_s:.1f} s" if self.yours.back_s is not None
                else f"more than {self.observed_s:.0f} s (the observation's end)")
        parts = [f"Your clients hung {hung} (model {self.yours.model[0]:.1f}-{self.yours.model[1]:.1f} s for the error"]
        if self.incident_recovered_s is not None:
            parts.append(f", your incident {self.incident_recovered_s:.0f} s")
        parts.append(")")
        if self.lb_noticed_s is not None:
            parts.append(f"; the load balancer noticed at {self.lb_noticed_s:.1f} s")
            if self.lb_model:
                parts.append(f" (model {self.lb_model[0]:.1f}-{self.lb_model[1]:.1f} s)")
        return "".join(parts) + "."


def row(cell, cure, yours_back):
    probe = cell.get("probe") or {}
    back = probe.get("recover_s")
    predicted = cell.get("predicted") or {}
    return Row(cell["cell"], cure.get("change", "your settings"), cure.get("cost", ""), back, probe.get("detect_s"),
               probe.get("error") or "",
               (predicted.get("earliest_s") or 0.0, predicted.get("latest_s") or 0.0), bool(probe.get("within_window")),
               None if back is None or yours_back is None else round(yours_back - back, 1),
               saturation.late_share(cell), late_report.kernel_in_window(cell))


def rank(summary, replay):
    cells = {cell["cell"]: cell for cell in summary["cells"]}
    if YOURS not in cells:
        raise ValueError("the run has no cell of the operator's own settings")
    cures = {cure["name"]: cure for cure in replay.get("cures", ())}
    yours_back = (cells[YOURS].get("probe") or {}).get("recover_s")
    yours = row(cells[YOURS], {}, yours_back)
    rows = [row(cells[name], cure, yours_back) for name, cure in cures.items() if name in cells]
    rows.sort(key=lambda r: (r.saved_s is None, -(r.saved_s or 0.0)))
    lb = cells[YOURS].get("lb") or {}
    model = lb.get("model") or {}
    return Ranking(yours, tuple(rows), lb.get("noticed_s"),
                   (model["earliest_s"], model["latest_s"]) if model else None,
                   (replay.get("incident") or {}).get("recovered"), summary.get("observed_s") or 0.0)
