"""Faults a lab cannot make are refused before anything starts, in one line (Lab.refusal): a
Compose lab without the service a fault talks to (base.py), a cluster lab for what it does not
make or cannot (cluster/fault_support.py)."""
import pytest

from harness.faults import FAULTS
from harness.lab.cluster import fault_support
from harness.lab.compose import ComposeLab
from harness.lab.request import LabRequest
from harness.lab.engine import HostEngine

TO_REPLICA = {"target": "db-primary", "replacement": "db-replica"}


def fault(name, **params):
    return FAULTS[name](None, **params)


class Api:
    def __init__(self, nodes):
        self.nodes = nodes

    def get(self, path):
        assert path == "/api/v1/nodes"
        return {"items": [{"metadata": {"name": n}} for n in self.nodes]}


class Cluster:
    """What fault_support asks of a cluster lab: its API server."""
    def __init__(self, nodes=("node-1",)):
        self.api = Api(nodes)


def compose_lab(services=()):
    return ComposeLab(LabRequest(project="p", servers=("db-primary", "db-replica"), services=services), engine=HostEngine())


def test_an_endpoint_fault_on_a_compose_lab_without_an_api_server_is_refused_naming_what_adds_one():
    why = compose_lab().refusal(fault("endpoint_not_ready", **TO_REPLICA))
    assert why.startswith("fault endpoint_not_ready needs kube-api") and "control: kube-proxy" in why


def test_an_endpoint_fault_on_a_compose_lab_with_the_api_server_is_made():
    assert compose_lab([{"kube-api": {}, "kube-proxy": {}}]).refusal(fault("endpoint_removed", **TO_REPLICA,
                                                                           grace_s=2.0)) is None


def test_a_fault_that_talks_to_nothing_more_is_made_on_any_compose_lab():
    assert compose_lab().refusal(fault("silent_kill", target="db-primary")) is None


@pytest.mark.parametrize("name, params", [
    ("endpoint_not_ready", TO_REPLICA),
    ("endpoint_removed", {**TO_REPLICA, "grace_s": 2.0}),
    ("promote_replica", {"target": "db-replica"}),
    ("silent_kill", {"target": "db-primary"}),
    ("ipvs_swap", {"service": "mysql", "old": "db-primary", "new": "db-replica", "nodest": "drop",
                   "drain_s": 0.0}),
])
def test_a_cluster_makes_the_faults_in_its_own_terms_and_the_silent_swap(name, params):
    assert fault_support.refusal(Cluster(), fault(name, **params)) is None


@pytest.mark.parametrize("params, says", [
    ({"nodest": "reset", "drain_s": 0.0}, "nodest=reset"),
    ({"nodest": "drop", "drain_s": 5.0}, "a drain"),
])
def test_a_swap_only_a_director_container_makes_is_refused_on_a_cluster(params, says):
    swap = fault("ipvs_swap", service="mysql", old="db-primary", new="db-replica", **params)
    why = fault_support.refusal(Cluster(), swap)
    assert why.startswith("cluster: fault ipvs_swap:") and says in why and "LAB=compose" in why


def test_losing_the_only_node_is_refused_naming_it():
    why = fault_support.refusal(Cluster(("node-1",)), fault("node_lost", **TO_REPLICA, grace_s=40.0))
    assert "only node (node-1)" in why and "clients" in why


def test_losing_a_node_of_a_bigger_cluster_is_refused_as_not_made():
    why = fault_support.refusal(Cluster(("a", "b", "c")), fault("node_lost", **TO_REPLICA, grace_s=40.0))
    assert "3-node cluster is not made yet" in why


def test_a_fault_the_cluster_does_not_make_is_refused_with_what_it_makes():
    why = fault_support.refusal(Cluster(), fault("slow_link", node="db-primary", delay=0.05))
    assert why.startswith("cluster: fault slow_link is not made on a cluster yet")
    assert all(name in why for name in fault_support.MADE) and "LAB=compose" in why
