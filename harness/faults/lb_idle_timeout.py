"""The director forgets flows that stay idle longer than `seconds` (the LB's idle timeout: IPVS
`--set`, a conntrack timeout policy on the nftables path).

IPVS gives a connection a new timeout only at its next packet, so an idle flow would keep the
old one: the lab therefore starts with this timeout, before any flow exists (lab_settings),
on both datapaths. The step marks the moment the measurement counts from and applies it again
(on the nftables path that also sets it on the flows conntrack already tracks)."""
from ..measure.effects import LB_FORGETS_FLOW, Effect, Landing
from .base import Fault, Setting


class LbIdleTimeout(Fault):
    name = "lb_idle_timeout"
    params = {"seconds": Setting("duration", help="idle flows older than this are forgotten")}

    def effect(self) -> Effect:
        return Effect(LB_FORGETS_FLOW, idle_timeout_s=self.p["seconds"])

    def lab_settings(self) -> dict[str, str]:
        return {"LB_IDLE_TIMEOUT": str(int(self.p["seconds"]))}

    def inject(self) -> Landing | None:
        applying, applied = self.lab.director_commands().set_idle_timeout(self.p["seconds"])
        return Landing(applying, applied - applying)
