"""Who changes the director (docs/adding-a-control-plane.md). The datapath (ipvs or nftables)
is the director's; a control plane decides when and how its table changes: the harness's own
commands (manual.py), health checks, a Kubernetes API.

  name                      what a scenario's `control:` names it
  services()                Compose services it adds to the lab ({service: definition})
  lab_settings()            compose.yaml variables it needs from the start ({NAME: value})
  changes(run)              when the director changed and why, read from the run's files
  lb_noticed(change, death_t)   its model of "LB noticed": a Window of seconds from a death to its change
"""
import dataclasses

from ..registered import Registered


@dataclasses.dataclass(frozen=True)
class DirectorChange:
    t: float                   # when it took effect (lab clock)
    uncertainty_s: float       # it may have landed up to this much later
    what: str                  # 'swap mysql: mysql-primary -> mysql-replica', ...
    why: str                   # 'scenario step 0', 'health check failed', ...


@dataclasses.dataclass(frozen=True)
class NoticeWindow:
    """How long after a backend died the control plane changed the director, by its own model."""
    expected_s: float
    earliest_s: float
    latest_s: float
    basis: str


CONTROL_PLANES = {}            # name -> ControlPlane subclass: each registers itself when its module is imported
DEFAULT_CONTROL_PLANE = "manual"


class ControlPlane(Registered):
    registry = CONTROL_PLANES

    def services(self):
        return {}

    def lab_settings(self):
        return {}

    def changes(self, run):
        """[DirectorChange] in time order, from the run's files only (a store.RunDir)."""
        raise NotImplementedError

    def lb_noticed(self, change, death_t):
        """NoticeWindow from death_t to `change`, by this control plane's timers."""
        raise NotImplementedError
