"""The cluster as a place the lab runs (LAB=kubernetes): the single-node cluster `make cluster-up`
keeps in a guest, reached through its API server and, for exec, its node's ssh; or, with a
KUBECONFIG other than cluster-up's, the cluster it names, reached through its API server alone
(agent.py: the node's shell is a privileged pod on it)."""
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, Self

from ...errors import LabError
from ...settings import machine
from ..request import LabRequest
from .agent import RemoteNode
from .faces import ClusterNodes
from .node import ClusterNode

if TYPE_CHECKING:
    from .lab import ClusterLab


def node_for(kubeconfig: str | None) -> ClusterNodes:
    """cluster-up's node, unless KUBECONFIG names another cluster."""
    own = ClusterNode()
    if kubeconfig and os.path.realpath(kubeconfig) != os.path.realpath(own.kubeconfig_path):
        if not os.path.exists(kubeconfig):
            raise LabError(f"LAB=kubernetes: KUBECONFIG={kubeconfig}: no such file")
        return RemoteNode(kubeconfig)
    return own


class ClusterPlace:
    where = "cluster"              # the cluster outlives the run; its namespace goes with the lab

    def __init__(self, node: ClusterNodes | None = None) -> None:
        self.node = node or node_for(machine.kubeconfig())

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        return False

    def ensure_started(self, say: Callable[[str], None] | None = None) -> None:
        self.node.ensure_reachable()

    def lab_of_shape(self, request: LabRequest) -> "ClusterLab":
        """The lab a LabRequest asks for (a ClusterLab), or a LabError naming what a cluster cannot
        give it. (net_admin needs nothing: exec enters a pod with root's capabilities.)"""
        r = request
        cells, datapath, services = r.cells, r.datapath, r.services
        if r.cell_namespaces != "container":
            raise LabError("cluster: each cell is a pod of its own; cell namespaces 'netns' is for the Compose labs")
        if datapath not in ("auto", "ipvs"):
            raise LabError(f"cluster: the director is the cluster's kube-proxy in IPVS mode, not datapath {datapath}")
        if any(services):
            raise LabError("cluster: the director's control plane is the cluster's own kube-proxy; a scenario's "
                           "control plane (keepalived, the lab's kube-proxy) runs on the Compose labs")
        with_netem = [cell.name for cell in cells if cell.netem]
        if with_netem:
            raise LabError(f"cluster: netem on a cell's link is not made on a cluster yet ({', '.join(with_netem)})")
        self.ensure_started()
        from .lab import ClusterLab
        return ClusterLab(self.node, r.project, cells=cells, servers=r.servers, database=r.database, workdir=r.workdir,
                          env=r.env)
