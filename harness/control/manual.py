"""The manual control plane: the harness itself changes the director when a scenario step says
so (the seed's `ipvsadm -d old; ipvsadm -a new`, an LB idle timeout), through lbctl in the
director's container (images/director/lbctl), the same over both datapaths."""
import json

from ..director import Director
from ..topology import NODEST_POLICIES
from .base import ControlPlane, DirectorChange, NoticeWindow

# The fault steps that are this control plane's commands (harness/faults/).
COMMANDS = ("ipvs_swap", "lb_idle_timeout")


class Manual(ControlPlane):
    name = "manual"

    def changes(self, run):
        changes = []
        for event in run.events():
            if event.get("source") == "harness" and event["event"] == "fault" and event["name"] in COMMANDS:
                params = event.get("params", {})
                what = (f"swap {params.get('service')}: {params.get('old')} -> {params.get('new')}"
                        if event["name"] == "ipvs_swap" else f"idle timeout {params.get('seconds')} s")
                changes.append(DirectorChange(event["t"], event.get("uncertainty_s", 0.0), what,
                                              f"scenario step {event.get('step')}"))
        return changes

    def lb_noticed(self, change, death_t):
        """An operator's command is the change itself: it notices when it is typed."""
        delay = max(0.0, change.t - death_t)
        return NoticeWindow(delay, delay, delay + change.uncertainty_s, "the operator's own command")


class LbCommands:
    """The director's lbctl commands this control plane sends (a lab's director container)."""

    def __init__(self, lab):
        self.lab = lab
        self.director = Director(lab)

    def _change(self, *args):
        """Run a changing lbctl command; returns (applying_t, applied_t): the change landed
        between the two, on the kernel clock every container shares."""
        report = json.loads(self.director.lbctl(*args).splitlines()[-1])
        return report["applying_t"], report["applied_t"]

    def swap(self, name, old, new, nodest="drop", drain_s=0.0):
        """The seed's switch, `ipvsadm -d old; ipvsadm -a new`, as one transaction."""
        if nodest not in NODEST_POLICIES:
            raise ValueError(f"nodest must be one of {NODEST_POLICIES}, not {nodest!r}")
        d = self.director
        return self._change("swap", d.vip(name), d.backend(name, old), d.backend(name, new),
                            "--nodest", nodest, "--drain", drain_s)

    def set_idle_timeout(self, seconds):
        return self._change("idle-timeout", int(seconds))

    def reset(self):
        """Back to the configuration the director started with."""
        self.director.lbctl("init")

    def state(self):
        return self.director.state()

    def vip(self, name):
        return self.director.vip(name)
