"""The cluster as a place the lab runs (LAB=kubernetes): the single-node cluster `make cluster-up`
keeps in a guest, reached through its API server and, for exec, its node's ssh. A cluster given
only by a kubeconfig has no node shell the lab can use yet, so it is refused by name."""
import os

from ...errors import LabError
from .node import ClusterNode, NodeNotUp


class ClusterPlace:
    where = "cluster"              # lab_on's cue: the cluster outlives the run, its namespace goes with the lab

    def __init__(self, node=None):
        self.node = node or ClusterNode()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def ensure_started(self, say=None):
        kubeconfig = os.environ.get("KUBECONFIG")
        if kubeconfig and os.path.realpath(kubeconfig) != os.path.realpath(self.node.kubeconfig_path):
            raise LabError(f"LAB=kubernetes: KUBECONFIG={kubeconfig} is not the cluster `make cluster-up` keeps "
                           f"({self.node.kubeconfig_path}); the lab runs its commands on that cluster's node over "
                           "ssh, which another cluster does not offer")
        if not self.node.running():
            raise NodeNotUp("LAB=kubernetes: no cluster is up; `make cluster-up` starts one (about 3 minutes)")

    def lab_of_shape(self, project, cells=(), datapath="auto", env=None, workdir=None, servers=None, net_admin=(),
                     cell_namespaces="container", services=(), database=None):
        """The lab lab_on asks for with ComposeLab's arguments (a ClusterLab), or a LabError naming
        what a cluster cannot give it. (net_admin needs nothing: exec enters a pod with root's
        capabilities.)"""
        if cell_namespaces != "container":
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
        return ClusterLab(self.node, project, cells=cells, servers=servers, database=database, workdir=workdir, env=env)
