"""The outage split in two, for a control plane that acts by itself (keepalived): "LB noticed",
from the fault to the control plane's change of the cell's director, beside the plane's own
timing model; and "client noticed", from that change to the client's error. For a plane a
scenario step changes (manual's swap, dns's re-pointed name) the change is that step: the run's
part says when it came, and no cell's outage is split by it."""
from ...measure.effects import NONE
from ...topology import PROTOCOL_PORTS
from ..base import CellRecord, RunContext, Signal
from . import section
from .record import LbCell, LbPart, LbRun


class LbNoticed(Signal):
    name = "lb"
    section = section

    def summarize_run(self, context: RunContext) -> LbRun | None:
        c = context
        if c.fault is None:
            return None
        found: LbRun = {}
        promotion = c.control.promotion(c.run, c.t_fault)
        if promotion:
            found["promotion"] = promotion.as_json()
        stepped = None if c.control.acts_by_itself else next(
            (change for change in c.changes if change.t >= c.first_fault["started_t"]), None)
        if stepped is not None:
            found["stepped"] = {"what": stepped.what, "at_s": round(stepped.t - c.t_fault, 3)}
        return found or None

    def summarize_cell(self, record: CellRecord) -> LbCell:
        c = record.context
        if not c.control.acts_by_itself:
            return {}
        director = c.director_of(record.cell)
        change = c.control.change_for(director, c.changes, PROTOCOL_PORTS[c.scenario.probe.proto], c.first_fault["started_t"])
        part: LbPart = {"director": director, "noticed_s": None, "noticed_by_s": None, "change": None, "why": None,
                        "model": None, "within_model": None, "client_noticed_s": None, "client_noticed_from_s": None}
        if change is not None:
            # it changed between noticed_s and noticed_by_s (the director's table, sampled, and the log)
            noticed, by = change.t - c.t_fault, change.t + change.uncertainty_s - c.t_fault
            detect = record.outcome.detect_s
            part["director"], part["noticed_s"], part["noticed_by_s"] = change.director, round(noticed, 3), round(by, 3)
            part["change"], part["why"] = change.what, change.why
            part["client_noticed_s"] = None if detect is None else round(detect - by, 3)
            part["client_noticed_from_s"] = None if detect is None else round(detect - noticed, 3)
            # a fault that kills nothing (a SYN limit) leaves no death to notice: the change was a
            # false alarm of the plane's checks, and its timing model does not apply
            if c.effect.kind != NONE:
                model = c.control.lb_noticed(change, c.t_fault)
                part["model"] = {"expected_s": round(model.expected_s, 3), "earliest_s": round(model.earliest_s, 3),
                                 "latest_s": round(model.latest_s, 3), "basis": model.basis}
                part["within_model"] = model.earliest_s - 0.0005 <= by and noticed <= model.latest_s + 0.0005
        return {"lb": part}
