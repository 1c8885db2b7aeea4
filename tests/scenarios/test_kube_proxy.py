"""kube-proxy as the director's control plane, nftables mode, on this host's kernel: the real
kube-proxy reprograms the director from an EndpointSlice write, the blackholed clients end where
the kernel says, and nothing of it reaches the host."""
import io
import subprocess
from pathlib import Path

import pytest

from harness import scenario
from harness.control import control_plane, kube_proxy_log
from harness.errors import LabError
from harness.pipeline import run_and_report
from harness.measure.run_record import first_fault
from harness.store import RunDir

from tests.control_plane_contract import check_changes
from tests.host_state import host_links
from tests.kube_proxy_checks import assert_clients_waited_for_their_kernel, primary_and_replica


GRACE_S = 3.0
# Kernel settings of the whole machine that kube-proxy writes unless told not to (its --conntrack-*
# flags): it must leave them as they were.
HOST_SETTINGS = ("/proc/sys/net/netfilter/nf_conntrack_max", "/sys/module/nf_conntrack/parameters/hashsize",
                 "/proc/sys/net/netfilter/nf_conntrack_tcp_timeout_established", "/proc/sys/net/ipv4/ip_forward")


def host_state():
    settings = {p: Path(p).read_text().strip() for p in HOST_SETTINGS if Path(p).exists()}
    tables = subprocess.run(["nft", "list", "tables"], capture_output=True, text=True, check=True).stdout
    return settings, sorted(tables.splitlines()), host_links()


def mysql_endpoints_sampled(run):
    """[(t, the mysql service chain's endpoints)] from the director's nft table as sampled."""
    samples = kube_proxy_log.parse_nft_samples(run.read(run.director_table("director")))
    return [(t, next((eps for chain, eps in table.items() if chain.endswith("/mysql")), {})) for t, table in samples]


def test_kube_proxy_nftables_reprograms_the_director_from_the_endpoint_write_and_clients_blackhole(run_scenario):
    before = host_state()
    summary, path = run_scenario("kube-proxy-nftables-failover", warmup_s=3, observe_s=30,
                                 cells=[{"tcp_retries2": 5}, {"tcp_retries2": 5, "tcp_user_timeout_ms": 3000}],
                                 steps=[{"fault": "node_lost", "target": "db-primary",
                                         "replacement": "db-replica", "grace_s": GRACE_S}])
    assert host_state() == before, "kube-proxy changed the host's conntrack settings, nft tables or links"
    check_changes(path)             # the kube-proxy control plane's contract (tests/control_plane_contract.py)
    run = RunDir(path)
    primary, replica = primary_and_replica(run)
    assert kube_proxy_log.mode(run.read(run.service_log("kube-proxy"))) == "nftables"

    # No drain in nftables mode: each client waits for its own kernel (docs/facts/kernel.md), not for kube-proxy.
    by_name = assert_clients_waited_for_their_kernel(summary, run)
    for cell in by_name.values():
        assert cell["probe"]["error"] == "MYSQL_2013" and cell["probe"]["server_after"] == "db-replica"

    # The endpoint controller's write came after the node's grace period (the container's clock,
    # which every container shares), and kube-proxy's sync followed it.
    fault = first_fault(run.events())
    [write] = kube_proxy_log.parse_writes(run.read(run.service_log("kube-api")))
    assert write.applying_t >= fault["t"] + GRACE_S
    [change] = [c for c in control_plane("kube-proxy", (("mode", "nftables"),)).changes(run) if c.backend == primary]
    assert change.t >= write.applying_t

    # The director's own nftables table, sampled twice a second, is the witness: the primary in the
    # service's chain until the sync, the replica only after it.
    mysql = mysql_endpoints_sampled(run)
    assert all(primary in eps for t, eps in mysql if t < write.applying_t)
    after = [eps for t, eps in mysql if t > change.t + change.uncertainty_s]
    assert after and all(set(eps) == {replica} for eps in after), after[:3]


def test_an_unready_pod_keeps_its_flows_and_a_deleted_one_closes_them(run_scenario):
    """endpoint_not_ready (effect none), then endpoint_removed (effect reset), on the kernel's
    default tcp_retries2=15: the flow kept its DNAT while kube-proxy had already taken the primary
    out of the service's chain, and the deleted pod's shutdown ended it long before the 924.6 s a
    blackhole would have taken (docs/facts/kernel.md)."""
    to_replica = {"target": "db-primary", "replacement": "db-replica"}
    summary, path = run_scenario("kube-proxy-nftables-failover", warmup_s=3, observe_s=20,
                                 cells=[{"tcp_retries2": 15}],
                                 steps=[{"fault": "endpoint_not_ready", **to_replica}, {"wait": "4s"},
                                        {"fault": "endpoint_removed", **to_replica, "grace_s": 1},
                                        {"fault": "promote_replica", "target": "db-replica"}])
    run = RunDir(path)
    primary, replica = primary_and_replica(run)
    not_ready, removed = [e for e in run.events() if e["event"] == "fault"][:2]
    assert (not_ready["name"], removed["name"]) == ("endpoint_not_ready", "endpoint_removed")

    # kube-proxy's sync after the not-ready write left only the replica in the service's chain
    # (the director's own table)...
    [change, *_] = [c for c in control_plane("kube-proxy", (("mode", "nftables"),)).changes(run) if c.backend == primary]
    assert not_ready["t"] <= change.t < removed["started_t"]
    out = [eps for t, eps in mysql_endpoints_sampled(run) if change.t + change.uncertainty_s < t < removed["started_t"]]
    assert out and all(set(eps) == {replica} for eps in out), out[:3]
    # ...while the probe's connection, made before, went on being answered by the primary (its own record).
    [cell] = summary["cells"]
    ops = [e for e in run.events() if e.get("source") == f"{cell['cell']}/probe" and e["event"] == "operation"]
    kept = [o for o in ops if change.t + change.uncertainty_s < o["t0"] and o["t1"] < removed["started_t"]]
    assert kept and all(o["ok"] and o["server"] == "db-primary" for o in kept), \
        [o for o in kept if not o["ok"] or o["server"] != "db-primary"][:3]
    assert len({o["conn"] for o in kept}) == 1, "the probe reconnected while its endpoint was only not ready"

    # The pod's deletion: counted from it (the first fault existing flows notice), the error came
    # within the observation, not after the kernel's 924.6 s, and the probe went on to the replica.
    assert summary["fault"]["name"] == "endpoint_removed"
    probe = cell["probe"]
    assert probe["detect_s"] is not None and probe["detect_s"] < 20, probe
    assert probe["server_after"] == "db-replica", probe


def test_a_kubernetes_fault_on_a_lab_without_an_api_server_is_refused_before_the_lab_starts(tmp_path):
    """pod-unready-then-deleted has no `control: kube-proxy`: on a Compose lab its faults would have
    nobody to write their EndpointSlices to, which is said before anything starts."""
    parsed, raw = scenario.load("pod-unready-then-deleted", {"warmup_s": 3})
    with pytest.raises(LabError, match=r"fault endpoint_not_ready needs kube-api, .*control: kube-proxy"):
        run_and_report(parsed, raw, results=tmp_path, out=io.StringIO())
    started = [line for path in tmp_path.rglob("events.jsonl") for line in path.read_text().splitlines()
               if '"lab_starting"' in line]
    assert not started, started
