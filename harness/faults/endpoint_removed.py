"""A pod is deleted: its endpoint turns terminating (ready false, serving true), the server is
told to stop (SIGTERM, as the kubelet does: it closes its connections as it shuts down), and
after its grace period the endpoint leaves the slice. A replacement's endpoint turns ready with
the first write, if one is named. On a cluster the pod itself is deleted with that grace period,
and the kubelet and the endpoint controller do the rest."""
from ..measure.effects import RESET, Effect, Landing
from .server_process import process_on
from . import endpoint_slices
from .base import Setting
from .endpoint_slices import EndpointFault
from ..abilities import pods_of


class EndpointRemoved(EndpointFault):
    name = "endpoint_removed"
    params = EndpointFault.target_params(
        "the server whose pod is deleted",
        grace_s=Setting("duration", 2.0, help="terminationGracePeriodSeconds: the endpoint is removed after it"))

    def stops(self) -> set[str]:
        return {self.p["target"]}

    def effect(self) -> Effect:
        return Effect(RESET)

    def inject(self) -> Landing | None:
        target, replacement = self.p["target"], self.p["replacement"]
        pods = pods_of(self.lab)
        if pods is not None:
            return pods.delete(target, self.replacement(), self.p["grace_s"])
        applying, _ = endpoint_slices.write(self.lab, target, endpoint_slices.TERMINATING, replacement)
        endpoint_slices.write_at(self.lab, target, None, replacement, at=applying + self.p["grace_s"])
        # what existing flows notice (a reset) comes with the server's shutdown, after the write
        stopping = self.lab.now()
        process_on(self.lab, target).stop(self.lab, target)
        return Landing(stopping, round(self.lab.now() - stopping, 6))
