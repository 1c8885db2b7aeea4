"""The Lab contract (tests/lab_contract.py) on the cluster: the same checks as on this host and in
a guest, with the cluster's API server and the node's own tools as the witness."""
import pytest

from harness.control import kube_proxy_log
from harness.lab.cluster.api import ApiError
from harness.lab.cluster.lab import ClusterLab
from harness.topology import DIRECTOR
from tests import lab_contract

pytestmark = pytest.mark.cluster
PROJECT = "blackhole-test-cluster-contract"


class ClusterWitness:
    where = ("cluster",)

    def __init__(self, node):
        self.node, self.api = node, node.api()

    def _pod(self, lab, service):
        return self.api.get(f"/api/v1/namespaces/{lab.project}/pods/{service}")

    def _node_object(self):
        [node] = self.api.get("/api/v1/nodes")["items"]
        return node

    def addresses(self, lab, service):
        if service == DIRECTOR:
            return sorted(a["address"] for a in self._node_object()["status"]["addresses"] if a["type"] == "InternalIP")
        return sorted(a["ip"] for a in self._pod(lab, service)["status"]["podIPs"])

    def same_front_network(self, lab, cell_address, director_address):
        """The node (the director) reaches the cell's pod directly, on a link of its own (no
        gateway in its route), and the director's address is the node's."""
        route = self.node.guest_command(f"ip -o -4 route get {cell_address}")
        return " via " not in route and " dev " in route and director_address in self.addresses(lab, DIRECTOR)

    def kill(self, lab, service):
        self.api.delete(f"/api/v1/namespaces/{lab.project}/pods/{service}", grace_period_s=0)

    def director_log_names_datapath(self, log, datapath):
        return kube_proxy_log.mode(log) == datapath

    def describes_its_tools(self, described):
        return described["kubernetes"] == self.api.get("/version")["gitVersion"]

    def leftovers(self, project):
        try:
            self.api.get(f"/api/v1/namespaces/{project}")
        except ApiError as exc:
            if exc.status == 404:
                return {}
            raise
        return {"namespaces": [project]}


def cluster_lab(node):
    return ClusterLab(node, PROJECT, cells=[lab_contract.CELL], servers=(lab_contract.SERVER,))


def test_a_lab_on_the_cluster_keeps_the_lab_contract(node):
    witness = ClusterWitness(node)
    lab_contract.refused_by_preflight_before_anything_starts(cluster_lab(node), witness)
    lab = cluster_lab(node)
    try:
        lab.up()
        lab_contract.check_a_running_lab(lab, witness)
    finally:
        lab_contract.down_leaves_nothing(lab, witness)
