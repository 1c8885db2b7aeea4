"""The director of a lab on a cluster: the node's kube-proxy (IPVS), which the lab reads but does
not program; the seed's swap in cluster terms.

  ClusterDirector   harness/director's Director face: the VIP (the lab's Service's ClusterIP),
                    a backend's address, the table's state and flows read with ipvsadm on the node
  ClusterCommands   harness/director/commands.py's LbCommands face. kube-proxy never drops a
                    removed endpoint's flows: it keeps the backend at weight 0 while they last
                    (graceful termination), so they go on reaching it. The swap's blackhole in a
                    cluster is therefore the old server gone silent (its pod's network cut, as a
                    primary that hangs or loses its node) and taken out of the Service, the new
                    one put in: kube-proxy's own table change follows. What only a director
                    container can do (nodest reset, a drain, an idle timeout) is refused.
"""
from typing import TYPE_CHECKING, Any

from ...director import Director
from ...director.commands import LbCommands
from ...errors import LabError
from ...topology import DIRECTOR
from .fault_support import swap_problem

if TYPE_CHECKING:
    from .lab import ClusterLab

IPVS_TIMEOUT_COMMAND = ["ipvsadm", "-L", "--timeout"]
KUBE_PROXY_METRICS_PORT = 10249         # files/node-start's --metrics-bind-address


class ClusterDirector(Director):
    """Director's face over the node's kube-proxy: the VIP is the Service's ClusterIP, the table
    is IPVS's on the node (vip and backend come with Director)."""
    lab: "ClusterLab"

    def __init__(self, lab: "ClusterLab", service: str = DIRECTOR) -> None:
        if service != DIRECTOR:
            raise LabError(f"cluster: the director is the node's kube-proxy; there is no {service}")
        super().__init__(lab, service)

    def vip_address(self) -> str:
        return self.lab.vip_address()

    def lbctl(self, *args: object, timeout: float = 60) -> str:
        raise LabError(f"cluster: the director is the node's kube-proxy, which has no lbctl ({' '.join(map(str, args))})")

    def state(self, timeout: float = 60) -> dict[str, Any]:
        """What lbctl list says of a director container, as far as IPVS on the node tells it."""
        shown = self.lab.exec(DIRECTOR, IPVS_TIMEOUT_COMMAND, timeout=timeout).stdout.split()
        # "Timeout (tcp tcpfin udp): 900 120 300"
        return {"datapath": "ipvs", "idle_timeout_s": int(shown[-3]), "control": "kube-proxy"}

    @property
    def datapath(self) -> str:
        return "ipvs"

    def flows(self) -> str:
        return self.lab.exec(DIRECTOR, ["ipvsadm", "-Lnc"], check=False).stdout

    def kube_proxy_mode(self) -> str | None:
        """The mode the node's kube-proxy says it runs in (its /proxyMode page), or None."""
        page = self.lab.shell.run(f"exec 3<>/dev/tcp/127.0.0.1/{KUBE_PROXY_METRICS_PORT} && "
                                  "printf 'GET /proxyMode HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3", check=False,
                                  timeout=30).stdout
        body = page.replace("\r\n", "\n").split("\n\n", 1)[-1].strip()
        return body or None


class ClusterCommands(LbCommands):
    """LbCommands' face in cluster terms (state and vip come with LbCommands)."""
    lab: "ClusterLab"

    def __init__(self, lab: "ClusterLab") -> None:
        self.lab = lab
        self.director = ClusterDirector(lab)

    def swap(self, name: str, old: str, new: str, nodest: str = "drop", drain_s: float = 0.0) -> tuple[float, float]:
        """The old server's pod cut off silently and out of the Service, the new one in; returns
        (applying_t, applied_t): the cut landed between the two (the node's clock)."""
        problem = swap_problem(nodest, drain_s)
        if problem:
            raise LabError(f"cluster: {problem}")
        if old not in self.lab.servers or new not in self.lab.servers:
            raise LabError(f"cluster: the lab runs no {old if old not in self.lab.servers else new}")
        pods = self.lab.pods()
        applying, applied = pods.cut_silently(old)
        pods.set_behind_vip(old, False)
        pods.set_behind_vip(new, True)
        return applying, applied

    def set_idle_timeout(self, seconds: float) -> tuple[float, float]:
        raise LabError("cluster: the IPVS timeouts are kube-proxy's own (--ipvs-tcp-timeout); the lab does not "
                       "change them on a cluster")

    def reset(self) -> None:
        """The Service back as the lab started it, every cut undone."""
        self.lab.pods().reset()
