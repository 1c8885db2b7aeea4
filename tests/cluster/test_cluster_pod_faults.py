"""Faults in Kubernetes' own terms on the cluster (LAB=kubernetes): the primary's readiness
turned off, then its pod deleted (scenarios/pod-unready-then-deleted.yaml), and a lost node
refused where the cluster has one node. The witnesses are not the harness: the node's own IPVS
table (the primary at weight 0 while not ready, the replica serving), the node's IPVS flows and
the probe's own record (the connection kept to the primary), the kubelet's Killing event, and
docs/facts/kernel.md's budget, which a kernel timeout could not have beaten."""
import json

import pytest

from harness.errors import LabError
from harness.measure import director_table, probe_log
from tests.cluster.test_cluster_run import lab_namespaces, run_on_cluster
from tests.flow_witness import entry_of
from tests.kernel_facts import RETRIES2
from tests.kube_proxy_checks import probe_overhead_s

pytestmark = pytest.mark.cluster
PROBE_INTERVAL_S = 0.1              # the scenario's probe


def backends_of(run, cell_name):
    """The backend the cell's first connection had before the fault, and its reconnection's at
    the end, as the node's IPVS flow table showed them."""
    first, second = probe_log.local_ports(run.read(run.probe_log(cell_name)))[:2]
    [before] = entry_of(run, "before-fault", cell_name, first)
    [after] = entry_of(run, "end", cell_name, second)
    return before.backend, after.backend


def test_an_unready_pod_keeps_its_flows_and_a_deleted_one_closes_them(node, tmp_path):
    api = node.api()
    before = lab_namespaces(api)
    run = run_on_cluster(node, tmp_path, "pod-unready-then-deleted", warmup_s=5)
    assert lab_namespaces(api) == before, "the run left its namespace on the cluster"
    summary = run.summary()
    not_ready, removed = [e for e in run.events() if e.get("event") == "fault"][:2]
    assert (not_ready["name"], removed["name"]) == ("endpoint_not_ready", "endpoint_removed")
    primary, replica = backends_of(run, summary["cells"][0]["cell"])
    assert primary != replica and all(backends_of(run, c["cell"]) == (primary, replica) for c in summary["cells"])

    # The node's own IPVS table, sampled twice a second: once kube-proxy synced the not-ready
    # write, the primary was at weight 0 and the replica served, before the pod was deleted.
    samples = director_table.parse_samples(run.read(run.director_table("director")))
    mysql = [(t, servers) for t, table in samples for vip, servers in table.items() if vip.endswith(":3306")
             and (primary in servers or replica in servers)]
    out = [(t, servers) for t, servers in mysql if not_ready["t"] < t < removed["started_t"]
           and servers.get(primary) == 0]
    assert out, f"the primary was never at weight 0 before its deletion: {mysql[-3:]}"
    synced = out[0][0]
    assert all(servers.get(replica, 0) > 0 for t, servers in out), out[:3]

    # Meanwhile each client's connection, made before, went on being answered by the primary
    # (its own record), and the node's flow table kept it to the primary's pod.
    for cell in summary["cells"]:
        ops = probe_log.parse(run.read(run.probe_log(cell["cell"])))
        kept = [o for o in ops if synced < o["t0"] and o["t1"] < removed["started_t"]]
        assert kept and all(o["ok"] and o["server"] == "db-primary" for o in kept), \
            [o for o in kept if not o["ok"] or o["server"] != "db-primary"][:3]
        assert len({o["conn"] for o in kept}) == 1, f"{cell['cell']} reconnected while its endpoint was only not ready"

    # The deletion: the kubelet stopped the container (its own event), and each client's error
    # came between the DELETE and one probe interval after the container's end, whatever its
    # tcp_retries2: far inside even tcp_retries2=5's budget, so no kernel timeout ended it.
    events = json.loads(run.read(run.path / "guest" / "cluster-events.json"))["items"]
    assert any(e["reason"] == "Killing" and e["involvedObject"]["name"] == "db-primary" for e in events)
    ended = removed["seen"]["container_ended_t"]
    # the probe notices a closed connection with its next operation, as fast as it ran before
    assert summary["fault"]["name"] == "endpoint_removed"
    for cell in summary["cells"]:
        [error] = [o for o in probe_log.parse(run.read(run.probe_log(cell["cell"])))
                   if not o["ok"] and o["t1"] >= removed["started_t"]][:1]
        noticed_within = PROBE_INTERVAL_S + probe_overhead_s(run, cell["cell"], removed["started_t"])
        assert removed["started_t"] <= error["t1"] <= ended + noticed_within, (error, ended, noticed_within)
        assert error["t1"] - removed["started_t"] < RETRIES2[5][0], error
        assert cell["probe"]["server_after"] == "db-replica", cell["probe"]


def test_losing_the_only_node_is_refused_before_anything_is_made(node, tmp_path):
    api = node.api()
    before = lab_namespaces(api)
    with pytest.raises(LabError, match=r"node_lost: losing db-primary's node would lose the cluster's only node"):
        run_on_cluster(node, tmp_path, "pod-unready-then-deleted", cells=[{"tcp_retries2": 5}], warmup_s=5,
                       steps=[{"fault": "node_lost", "target": "db-primary", "replacement": "db-replica"}])
    assert lab_namespaces(api) == before
