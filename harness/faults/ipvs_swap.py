"""The seed's switch on the director: `ipvsadm -d old; ipvsadm -a new` (or the nftables equivalent)."""
from ..director import Director
from .base import Fault, Param


class IpvsSwap(Fault):
    name = "ipvs_swap"
    reversible = False
    params = {
        "service": Param("choice", "mysql", ("mysql", "web"), "which VIP port"),
        "old": Param("server", help="backend removed"),
        "new": Param("server", help="backend added"),
        "nodest": Param("choice", "drop", ("drop", "reset"), "what old flows get (expire_nodest_conn 0/1)"),
        "drain_s": Param("duration", 0.0, help="old flows keep working this long, then get a reset"),
    }

    def inject(self):
        applying, applied = Director(self.lab).swap(self.p["service"], self.p["old"], self.p["new"],
                                                    nodest=self.p["nodest"], drain_s=self.p["drain_s"])
        return {"landed_t": applying, "uncertainty_s": applied - applying}
