"""The changes lbctl makes to the director's table (images/director/lbctl, the same over both
datapaths): what the manual control plane (harness/control/manual.py) and the faults that
command the director send."""
import json
from typing import Any

from ..topology import NODEST_POLICIES
from . import Director, DirectorsLab


class LbCommands:
    """The director's lbctl commands (a lab's director container)."""

    def __init__(self, lab: DirectorsLab) -> None:
        self.lab = lab
        self.director = Director(lab)

    def _change(self, *args: object) -> tuple[float, float]:
        """Run a changing lbctl command; returns (applying_t, applied_t): the change landed
        between the two, on the kernel clock every container shares."""
        report = json.loads(self.director.lbctl(*args).splitlines()[-1])
        return report["applying_t"], report["applied_t"]

    def swap(self, name: str, old: str, new: str, nodest: str = "drop", drain_s: float = 0.0) -> tuple[float, float]:
        """The seed's switch, `ipvsadm -d old; ipvsadm -a new`, as one transaction."""
        if nodest not in NODEST_POLICIES:
            raise ValueError(f"nodest must be one of {NODEST_POLICIES}, not {nodest!r}")
        d = self.director
        return self._change("swap", d.vip(name), d.backend(name, old), d.backend(name, new),
                            "--nodest", nodest, "--drain", drain_s)

    def set_idle_timeout(self, seconds: float) -> tuple[float, float]:
        return self._change("idle-timeout", int(seconds))

    def reset(self) -> None:
        """Back to the configuration the director started with."""
        self.director.lbctl("init")

    def state(self) -> dict[str, Any]:
        return self.director.state()

    def vip(self, name: str) -> str:
        return self.director.vip(name)
