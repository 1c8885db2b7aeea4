"""A pod's readiness probe fails: its endpoint turns `ready: false` (serving false, not
terminating), and a replacement's turns ready if one is named. The server itself goes on
serving: kube-proxy only stops sending it new flows (IPVS: weight 0 while its connections
last; nftables: out of the service's chain, its flows kept by conntrack). On a cluster the pod's
own readiness turns off, and the cluster's endpoint controller writes the slice."""
from ..measure.effects import NONE, Effect, Landing
from . import endpoint_slices
from .endpoint_slices import EndpointFault
from ..abilities import pods_of


class EndpointNotReady(EndpointFault):
    name = "endpoint_not_ready"
    params = EndpointFault.target_params("the server whose endpoint turns not ready")

    def effect(self) -> Effect:
        return Effect(NONE)

    def inject(self) -> Landing | None:
        pods = pods_of(self.lab)
        if pods is not None:
            return pods.turn_unready(self.p["target"], self.replacement())
        applying, applied = endpoint_slices.write(self.lab, self.p["target"], endpoint_slices.NOT_READY,
                                                  self.p["replacement"])
        return Landing(applying, round(applied - applying, 6))
