"""A control plane's health checks, per director and real server (seed 003): failed checks, flaps
and time out of rotation before the fault, while it lasted and after its heal, beside each
director kernel's SYN schedule (how many SYNs a check gets within connect_timeout), as the plane
reads them (ControlPlane.health_checks); and the share of SYNs a backend's limit dropped
(faults/syn_limit.py, from its log)."""
from ...faults.syn_limit import SynLimit
from ...measure import health_checks
from ..base import RunContext, Signal
from ..connect import warm_up_t
from . import section
from .record import HealthChecksRun, LimitedBackend


class HealthChecks(Signal):
    name = "health_checks"
    section = section

    def summarize_run(self, context: RunContext) -> HealthChecksRun | None:
        if context.observed_s is None:
            return None
        t_fault = context.t_fault
        heal_t = t_fault + context.healed_after if context.healed_after is not None else None
        end_t = t_fault + context.observed_s
        # before: from the warm-up on (keepalived's first checks meet servers still starting)
        periods = {"before": (warm_up_t(context.events) or 0.0, t_fault), "during": (t_fault, heal_t)}
        if heal_t is not None:
            periods["after"] = (heal_t, None)
        directors = context.control.health_checks(context.run, context.env, periods, end_t)
        if not directors:
            return None
        limited: dict[str, LimitedBackend] = {}
        for step in context.scenario.steps:
            if step.kind == "fault" and step.name == SynLimit.name:
                target = dict(step.params)["target"]
                counts = health_checks.syn_counts(context.run.read(context.run.service_log(target)))
                if counts:
                    dropped, passed = counts
                    limited[target] = {"rate_per_s": dict(step.params)["rate_per_s"], "syns_dropped": dropped,
                                       "syns_passed": passed,
                                       "dropped_share": round(dropped / (dropped + passed), 3) if dropped + passed else None}
        return {"directors": directors, "limited_backends": limited}
