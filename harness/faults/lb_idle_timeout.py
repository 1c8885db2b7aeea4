"""The director starts forgetting flows that stay idle longer than `seconds` (the LB's idle
timeout: IPVS `--set`, conntrack timeouts on the nftables path), existing flows included."""
from ..director import Director
from .base import Fault, Param


class LbIdleTimeout(Fault):
    name = "lb_idle_timeout"
    reversible = False
    params = {"seconds": Param("duration", help="idle flows older than this are forgotten")}

    def inject(self):
        applying, applied = Director(self.lab).set_idle_timeout(self.p["seconds"])
        return {"landed_t": applying, "uncertainty_s": applied - applying}
