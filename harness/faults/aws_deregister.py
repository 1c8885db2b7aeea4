"""An operator deregisters a target from an AWS NLB's target group (the aws-nlb control plane,
emulated; harness/control/aws_nlb.py): new connections go to the other target at once, the
existing ones drain to the deregistered target for the group's deregistration delay
(deregistration_delay.timeout_seconds, 0-3600 s, 300 by default), and at its end are terminated
only if deregistration_delay.connection_termination.enabled is true (false by default for TCP
target groups): the emulation then resets each at its next packet, as the NLB resets an unhealthy
target's flows. Left on, the drained flows stay with the deregistered target, so an instance
terminated once its deregistration completes (an Auto Scaling scale-in) blackholes them. The
emulated health checks no longer check a deregistered target. Source: the ELBv2 API reference,
ModifyTargetGroupAttributes (deregistration_delay.*), and the NLB user guide's deregistration delay."""
from typing import Any

from .. import topology
from ..measure.effects import NONE, RESET, Effect, Landing
from .base import Fault, Setting

MOST_DELAY_S = 3600            # the attribute's documented range: 0-3600 s
# Without termination the drained flows are never ended by the NLB: a drain of a day, longer than
# a run watches (nftables refuses a set element's timeout of a week: "value too large").
KEPT_S = 86_400
MARK_DIR = "/run/cloud-lb/deregistered"   # the checker leaves a target marked here unchecked


class AwsDeregister(Fault):
    name = "aws_deregister"
    control_planes = ("aws-nlb",)
    params = {
        "target": Setting("server", help="the target deregistered (the other target of its service takes new connections)"),
        "delay_s": Setting("duration", 300.0, help="deregistration_delay.timeout_seconds (0-3600, default 300)"),
        "connection_termination": Setting("bool", False, help="deregistration_delay.connection_termination.enabled "
                                                           "(TCP default false): drained flows reset at the delay's end"),
    }

    @classmethod
    def problem(cls, params: dict[str, Any]) -> str | None:
        if not 0 <= params["delay_s"] <= MOST_DELAY_S:
            return f"delay_s {params['delay_s']:g}: AWS takes 0-{MOST_DELAY_S} s"
        return None

    def _service_and_standby(self) -> tuple[str, str]:
        target = self.p["target"]
        service = next(s for s, servers in topology.SERVICE_SERVERS.items() if target in servers)
        return service, next(s for s in topology.SERVICE_SERVERS[service] if s != target)

    def unchecked(self) -> set[str]:
        return {self.p["target"]}

    def effect(self) -> Effect:
        """Terminated: the drained flows are reset after the delay. Kept: they go on with the
        deregistered target, and notice only what then becomes of it."""
        return Effect(RESET, after_s=self.p["delay_s"]) if self.p["connection_termination"] else Effect(NONE)

    def inject(self) -> Landing | None:
        service, standby = self._service_and_standby()
        director = self.lab.director()
        target = director.backend(service, self.p["target"])
        self.lab.exec(topology.DIRECTOR, ["sh", "-c", f"mkdir -p {MARK_DIR} && touch {MARK_DIR}/{target}"])
        drain_s = self.p["delay_s"] if self.p["connection_termination"] else KEPT_S
        applying, applied = self.lab.director_commands().swap(service, self.p["target"], standby, nodest="reset",
                                                              drain_s=drain_s)
        return Landing(applying, applied - applying)
