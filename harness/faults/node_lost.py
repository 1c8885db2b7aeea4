"""A node is lost: the backend on it vanishes silently (no FIN, no RST: silent_kill's cut), and
its endpoint turns not ready only when the node controller gives up on the node, after the
node-monitor grace period (grace_s; Kubernetes' default is 40 s), as the endpoint controller
then writes it. A replacement's endpoint turns ready with that write, if one is named."""
from ..measure.effects import BLACKHOLE, Effect, Landing
from . import endpoint_slices
from .base import Setting
from .endpoint_slices import EndpointFault
from .silent_kill import SilentKill
from ..abilities import pods_of


class NodeLost(EndpointFault):
    name = "node_lost"
    params = EndpointFault.target_params(
        "the server on the node that is lost",
        grace_s=Setting("duration", 40.0, help="node-monitor grace period: the endpoint turns not ready after it"))

    def _cut(self) -> SilentKill:
        return SilentKill(self.lab, target=self.p["target"])

    def stops(self) -> set[str]:
        return {self.p["target"]}

    def acts_inside(self) -> set[str]:
        return {self.p["target"]}

    def effect(self) -> Effect:
        return Effect(BLACKHOLE)

    def inject(self) -> Landing | None:
        pods = pods_of(self.lab)
        if pods is not None:
            return pods.lose_node(self.p["target"], self.replacement(), self.p["grace_s"])
        landed = self._cut().inject()
        assert landed.landed_t is not None          # silent_kill stamps its cut
        endpoint_slices.write_at(self.lab, self.p["target"], endpoint_slices.NOT_READY, self.p["replacement"],
                                 at=landed.landed_t + self.p["grace_s"])
        return landed

    def recover(self) -> None:
        if pods_of(self.lab) is None:
            self._cut().recover()
