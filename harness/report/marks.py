"""The scenario's steps and the control plane's acts, as times after the fault: what the timeline
marks beside the fault (also before it: a deregistration, a replication cut) and what the run's
line on the page lists. From the summary alone."""
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..measure.summary_record import RunSummary
from ..topology import SERVICE_PORTS


@dataclass(frozen=True)
class Mark:
    at_s: float        # seconds after the fault took effect (negative: before it)
    what: str          # 'aws_deregister (target db-primary, delay_s 10.0)', 'Patroni promoted db-replica'
    kind: str          # 'step' (the scenario's own), 'heal', 'lb' (the director's change), 'promotion'


def of(run: RunSummary) -> list[Mark]:
    """[Mark, ...] by time: every step of the scenario but the fault itself, the first change a
    director made after the fault, and a control plane's promotion."""
    found = [Mark(s.at_s, fault_line(s.name, s.params) if s.event == "fault" else f"heal of {s.name}",
                  "step" if s.event == "fault" else "heal")
             for s in run.steps if not (s.event == "fault" and s.at_s == 0)]
    lbs = [(c.lb.noticed_s, c.lb) for c in run.cells if c.lb is not None and c.lb.noticed_s is not None]
    if lbs:
        noticed_s, first = min(lbs, key=lambda noticed: noticed[0])
        found.append(Mark(noticed_s, f"{first.director}: {first.change or 'changed'}", "lb"))
    promotion = (run.signals.get("lb") or {}).get("promotion")
    if promotion:
        found.append(Mark(promotion["promoted_s"], f"{promotion['by']} promoted {promotion['server']}", "promotion"))
    return sorted(found, key=lambda m: m.at_s)


def fault_line(name: str | None, params: Mapping[str, Any] | None) -> str:
    """'ipvs_swap (VIP:3306, old db-primary, new db-replica, drain_s 0.0)': the fault and its
    parameters; a service by its VIP port, the name the page's reader knows whatever the engine."""
    said = ", ".join(f"VIP:{SERVICE_PORTS[value]}" if key == "service" and value in SERVICE_PORTS else f"{key} {value}"
                     for key, value in (params or {}).items())
    return f"{name}" + (f" ({said})" if said else "")


def fault_and_steps(run: RunSummary) -> str:
    """'silent_kill (target db-primary), after aws_deregister (...) 11.3 s before it': the fault,
    and the scenario's steps that came before it."""
    earlier = [m for m in of(run) if m.kind == "step" and m.at_s < 0]
    fault = run.fault
    return fault_line(fault.name if fault else None, fault.params if fault else None) + "".join(
        f", after {m.what} {-m.at_s:.1f} s before it" for m in earlier)
