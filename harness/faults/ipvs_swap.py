"""The seed's switch on the director: `ipvsadm -d old; ipvsadm -a new` (or the nftables equivalent),
a command of the manual control plane (harness/control/manual.py)."""
from typing import Any

from .. import topology
from ..measure.effects import BLACKHOLE, RESET, Effect, Landing
from .base import Fault, Setting


class IpvsSwap(Fault):
    name = "ipvs_swap"
    params = {
        "service": Setting("str", "mysql", choices=tuple(topology.SERVICE_PORTS), help="which VIP port"),
        "old": Setting("server", help="backend removed"),
        "new": Setting("server", help="backend added"),
        "nodest": Setting("str", topology.DEFAULT_NODEST, choices=topology.NODEST_POLICIES,
                          help="what old flows get (expire_nodest_conn 0/1)"),
        "drain_s": Setting("duration", 0.0, help="old flows keep working this long, then get a reset"),
    }

    @classmethod
    def problem(cls, params: dict[str, Any]) -> str | None:
        if params["old"] == params["new"]:
            return f"old and new are both {params['old']}: a swap needs two servers"
        servers = topology.SERVICE_SERVERS[params["service"]]
        strangers = [s for s in (params["old"], params["new"]) if s not in servers]
        if strangers:
            return (f"{', '.join(strangers)} does not serve {params['service']} (its servers: "
                    f"{', '.join(servers)})")
        return None

    def effect(self) -> Effect:
        if self.p["drain_s"] > 0:
            return Effect(RESET, after_s=self.p["drain_s"])
        return Effect(RESET if self.p["nodest"] == "reset" else BLACKHOLE)

    def lab_settings(self) -> dict[str, str]:
        """IPVS decides what a removed server's flows get by net.ipv4.vs.expire_nodest_conn."""
        return {"LB_EXPIRE_NODEST_CONN": "1" if self.effect().kind == RESET else "0"}

    def inject(self) -> Landing | None:
        applying, applied = self.lab.director_commands().swap(self.p["service"], self.p["old"], self.p["new"],
                                                      nodest=self.p["nodest"], drain_s=self.p["drain_s"])
        return Landing(applying, applied - applying)
