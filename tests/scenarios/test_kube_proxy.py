"""kube-proxy as the director's control plane, nftables mode, on this host's kernel: the real
kube-proxy reprograms the director from an EndpointSlice write, the blackholed clients end where
the kernel says, and nothing of it reaches the host."""
import subprocess
from pathlib import Path

from harness.control import control_plane, kube_proxy_log
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


def test_kube_proxy_nftables_reprograms_the_director_from_the_endpoint_write_and_clients_blackhole(run_scenario):
    before = host_state()
    summary, path = run_scenario("kube-proxy-nftables-failover", warmup_s=3, observe_s=30,
                                 cells=[{"tcp_retries2": 5}, {"tcp_retries2": 5, "tcp_user_timeout_ms": 3000}],
                                 steps=[{"fault": "node_lost", "target": "mysql-primary",
                                         "replacement": "mysql-replica", "grace_s": GRACE_S}])
    assert host_state() == before, "kube-proxy changed the host's conntrack settings, nft tables or links"
    check_changes(path)             # the kube-proxy control plane's contract (tests/control_plane_contract.py)
    run = RunDir(path)
    primary, replica = primary_and_replica(run)
    assert kube_proxy_log.mode(run.read(run.service_log("kube-proxy"))) == "nftables"

    # No drain in nftables mode: each client waits for its own kernel (KERNEL_FACTS.md), not for kube-proxy.
    by_name = assert_clients_waited_for_their_kernel(summary)
    for cell in by_name.values():
        assert cell["probe"]["error"] == "MYSQL_2013" and cell["probe"]["server_after"] == "mysql-replica"

    # The endpoint controller's write came after the node's grace period (the container's clock,
    # which every container shares), and kube-proxy's sync followed it.
    fault = first_fault(run.events())
    [write] = kube_proxy_log.parse_writes(run.read(run.service_log("kube-api")))
    assert write.applying_t >= fault["t"] + GRACE_S
    [change] = [c for c in control_plane("kube-proxy", (("mode", "nftables"),)).changes(run) if c.backend == primary]
    assert change.t >= write.applying_t

    # The director's own nftables table, sampled twice a second, is the witness: the primary in the
    # service's chain until the sync, the replica only after it.
    samples = kube_proxy_log.parse_nft_samples(run.read(run.director_table("director")))
    mysql = [(t, next((eps for chain, eps in table.items() if chain.endswith("/mysql")), {})) for t, table in samples]
    assert all(primary in eps for t, eps in mysql if t < write.applying_t)
    after = [eps for t, eps in mysql if t > change.t + change.uncertainty_s]
    assert after and all(set(eps) == {replica} for eps in after), after[:3]

