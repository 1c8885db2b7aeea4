"""A scenario run on the cluster (LAB=kubernetes): the seed, lvs-switchover, through the same
pipeline, probes and report as on the Compose labs, with the cluster's own kube-proxy (IPVS) as
the director; and a cell the node's kubelet does not allow refused before anything is made.
The witnesses: docs/facts/kernel.md's window counted from the blackholed query's own send, the
node's IPVS flow table (ipvsadm), and the API server's list of namespaces."""
import io
import shutil

import pytest

from harness import scenario
from harness.errors import LabError
from harness.lab.cluster.agent import RemoteNode
from harness.lab.cluster.place import ClusterPlace
from harness.pipeline import run_and_report
from tests.cluster.conftest import NOT_ALLOWED
from tests.flow_witness import assert_blackholed_flow_kept_and_reconnection_elsewhere
from tests.kernel_facts import blackhole_bounds
from tests.kernel_witness import assert_reported_what_the_kernel_ended, first_failure

pytestmark = pytest.mark.cluster
PROBE_WRITE_S = 0.05
# Only the limit (the run ends once every client is back): r5 gives up after ~15 s and the
# clients were back 24-52 s after the fault; the seed's own 1100 s is for tcp_retries2=15.
OBSERVE_S = 180


def lab_namespaces(api):
    return sorted(n["metadata"]["name"] for n in api.get("/api/v1/namespaces")["items"]
                  if n["metadata"]["name"].startswith("blackhole-"))


def run_on_cluster(node, tmp_path, scenario_id, **overrides):
    parsed, raw = scenario.load(scenario_id, overrides)
    out = io.StringIO()
    try:
        return run_and_report(parsed, raw, results=tmp_path, out=out, engine=ClusterPlace(node))
    finally:
        print(out.getvalue())


def node_tables(node):
    return sorted(node.guest_command("nft list tables").split("\n"))


def given_by_its_kubeconfig(node, directory):
    """The same cluster as a user's would be: its kubeconfig (a copy elsewhere) and nothing else."""
    copy = directory / "kubeconfig"
    shutil.copy(node.kubeconfig_path, copy)
    return RemoteNode(copy)


@pytest.mark.parametrize("scenario_id,reached", [("lvs-switchover", "by ssh"), ("silent-kill", "by ssh"),
                                                 ("lvs-switchover", "by its kubeconfig")])
def test_the_seed_blackhole_through_the_clusters_kube_proxy(node, tmp_path, scenario_id, reached):
    """The seed's swap (the old primary's pod cut silently, out of the Service) and silent_kill (its
    pod cut, its server killed: the kubelet and kube-proxy then take it out by themselves). By its
    kubeconfig: no ssh to the node, whose shell is then the node agent's pod (kubectl exec)."""
    api = node.api()
    before, tables = lab_namespaces(api), node_tables(node)
    through = node if reached == "by ssh" else given_by_its_kubeconfig(node, tmp_path)
    run = run_on_cluster(through, tmp_path, scenario_id, TCP_RETRIES2="5", warmup_s=10, observe_s=OBSERVE_S)
    assert lab_namespaces(api) == before, "the run left its namespace on the cluster"
    assert node_tables(node) == tables, "the run left nft tables on the node"
    summary, env = run.summary(), run.env()
    [cell] = summary["cells"]
    assert env["where"]["where"] == "cluster" and env["datapath"] == "ipvs"
    assert ("kubectl exec" in env["where"].get("transport", "")) == (reached == "by its kubeconfig")
    assert env["kernel"] == node.guest_command("uname -r").strip()
    # HZ: the kernel package's config (the ssh path's guest), by its kubeconfig counted from the node's jiffies
    package_hz = node.engine_for(None).hz()
    assert package_hz is not None and env["kernel_facts"]["hz"] == package_hz
    assert env["versions"]["kubernetes"] == api.get("/version")["gitVersion"]
    probe, t_fault = cell["probe"], summary["fault"]["t"]
    op = first_failure(run, cell, t_fault)
    assert op["t1"] - t_fault == pytest.approx(probe["detect_s"], abs=0.001)
    assert_reported_what_the_kernel_ended(
        run, cell, op, blackhole_bounds(5, PROBE_WRITE_S, cell["predicted"]["base_rto_s"]), op["t0"])
    assert probe["error"] == "MYSQL_2013" and probe["server_after"] == "db-replica"
    # sysbench's connection too came back: a cut that lands between the server's ACK of a query
    # and its answer leaves the client nothing to retransmit, and it waits for ever instead
    assert cell["sysbench"]["recover_s"] is not None, cell["sysbench"]
    # kube-proxy's own table: the blackholed connection's entry outlives the swap, still to the
    # silent primary (graceful termination keeps it), while the reconnection goes to the replica.
    assert_blackholed_flow_kept_and_reconnection_elsewhere(run, cell["cell"])


@pytest.mark.parametrize("reached", ["by ssh", "by its kubeconfig"])
def test_a_cell_the_kubelet_does_not_allow_is_refused_before_anything_is_made(node, tmp_path, reached):
    """By its kubeconfig, the node agent the lab made to ask the node goes too."""
    api = node.api()
    before = lab_namespaces(api)
    knob = NOT_ALLOWED.rsplit(".", 1)[1]
    through = node if reached == "by ssh" else given_by_its_kubeconfig(node, tmp_path)
    with pytest.raises(LabError, match=rf"{NOT_ALLOWED}.*allowedUnsafeSysctls"):
        run_on_cluster(through, tmp_path, "lvs-switchover", cells=[{"tcp_retries2": 5, knob: 2}], warmup_s=5)
    assert lab_namespaces(api) == before
