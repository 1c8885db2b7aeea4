"""The kube-proxy control plane without a lab: its logs read back (lines as kube-proxy 1.34 and
kube-endpoints wrote them in a run of kube-proxy-nftables-failover), the tables it programmed,
the Compose services it adds, and the scenario checks that refuse what cannot run."""
import dataclasses

import pytest

from harness.control import control_plane
from harness.control import kube_proxy_log as log
from harness.faults import FAULTS
from harness.scenario import ScenarioError, parse

WRITE = ('2026-11-26T11:02:02.787073382Z {"kube_endpoints": "write", "service": "mysql", "endpoints": '
         '["10.213.2.21:ready=0,serving=0,terminating=0", "10.213.2.22:ready=1"], '
         '"applying_t": 1795690922.778325, "applied_t": 1795690922.786803}')
SYNC_V4 = ('2026-11-26T11:02:02.822527869Z I1126 11:02:02.822301       7 proxier.go:1132] "SyncProxyRules complete" '
           'ipFamily="IPv4" elapsed="36.667878ms"')
SYNC_V6 = ('2026-11-26T11:02:02.871527869Z I1126 11:02:02.871301       7 proxier.go:1132] "SyncProxyRules complete" '
           'ipFamily="IPv6" elapsed="20.1ms"')
EARLIER_SYNC = ('2026-11-26T11:01:44.849380479Z I1126 11:01:44.845295       7 proxier.go:1132] '
                '"SyncProxyRules complete" ipFamily="IPv4" elapsed="79.328998ms"')
IPVS_SYNC = ('2026-11-26T11:02:03.100000000Z I1126 11:02:03.090000       7 proxier.go:886] "syncProxyRules complete" '
             'elapsed="1.2s"')
NFT_TABLE = """\tchain service-ULMVA6XW-default/lab/tcp/mysql {
\t\tip daddr 10.213.1.10 tcp dport 3306 jump mark-for-masquerade
\t\tnumgen random mod 2 vmap { 0 : goto endpoint-5OJB2KTY-default/lab/tcp/mysql__10.213.2.21/3306 , 1 : goto endpoint-AB12CD34-default/lab/tcp/mysql__10.213.2.22/3306 }
\t}
\tchain endpoint-5OJB2KTY-default/lab/tcp/mysql__10.213.2.21/3306 {
\t\tmeta l4proto tcp dnat to 10.213.2.21:3306
\t}
"""


def test_go_durations_as_kube_proxy_logs_them():
    assert log.go_duration("36.667878ms") == pytest.approx(0.036667878)
    assert log.go_duration("1m2.5s") == pytest.approx(62.5)
    assert log.go_duration("850µs") == pytest.approx(0.00085)
    with pytest.raises(ValueError):
        log.go_duration("soon")


def test_a_write_is_programmed_by_the_first_ipv4_sync_that_began_after_it_was_sent():
    writes, syncs = log.parse_writes(WRITE), log.parse_syncs("\n".join([EARLIER_SYNC, SYNC_V4, SYNC_V6]))
    assert len(syncs) == 2, "the IPv6 family's sync is not the director's IPv4 table"
    [change] = log.changes(writes, syncs, {"mysql": 3306})
    # the sync ended 11:02:02.822301 and took 36.667878 ms: it began 11:02:02.785633, after the write was sent
    assert change.t == pytest.approx(1795690922.785633, abs=1e-6)
    assert change.uncertainty_s == pytest.approx(0.036668, abs=1e-6)
    assert change.cause_t == 1795690922.778325
    assert change.backend == "10.213.2.21:3306"
    assert change.what == "mysql: 10.213.2.21 not ready, 10.213.2.22 ready"
    assert "0-44 ms after" in change.why


def test_a_write_no_sync_followed_is_not_a_change():
    assert log.changes(log.parse_writes(WRITE), log.parse_syncs(EARLIER_SYNC), {"mysql": 3306}) == []


def test_ipvs_mode_logs_its_syncs_in_lower_case():
    [sync] = log.parse_syncs(IPVS_SYNC)
    assert sync.end_t - sync.start_t == pytest.approx(1.2)


def test_a_removal_names_the_endpoint_that_left_and_a_second_write_compares_with_the_first():
    first = log.Write("mysql", (("10.213.2.21", {"ready": False, "serving": True, "terminating": True}),
                                ("10.213.2.22", {"ready": True, "serving": True, "terminating": False})), 10.0, 10.01)
    second = log.Write("mysql", (("10.213.2.22", {"ready": True, "serving": True, "terminating": False}),), 12.0, 12.01)
    syncs = [log.Sync(10.02, 10.06), log.Sync(12.02, 12.05)]
    one, two = log.changes([first, second], syncs, {"mysql": 3306})
    assert one.what == "mysql: 10.213.2.21 terminating, 10.213.2.22 ready" and one.backend == "10.213.2.21:3306"
    # it was out of service already (terminating): its removal takes nothing else out
    assert two.what == "mysql: 10.213.2.21 removed" and two.backend == ""


def test_kube_proxys_nftables_table_reads_as_endpoints_per_service_port():
    assert log.parse_nft_table(NFT_TABLE) == {"default/lab/tcp/mysql": {"10.213.2.21:3306": 1, "10.213.2.22:3306": 1}}


def test_the_sampled_table_narrows_a_change_to_when_the_backend_left_it():
    change = log.changes(log.parse_writes(WRITE), log.parse_syncs(SYNC_V4), {"mysql": 3306})[0]
    serving = {"default/lab/tcp/mysql": {"10.213.2.21:3306": 1}}
    gone = {"default/lab/tcp/mysql": {"10.213.2.22:3306": 1}}
    narrowed = log.bounded_by_table(change, [(change.t + 0.01, serving), (change.t + 0.02, gone)])
    assert narrowed.t == pytest.approx(change.t + 0.01) and narrowed.uncertainty_s == pytest.approx(0.01)
    assert log.bounded_by_table(change, []) == change


def test_the_mode_kube_proxy_ran_is_read_from_its_log():
    assert log.mode('I1126 11:01:44.416183  7 server_linux.go:246] "Using nftables Proxier"') == "nftables"
    assert log.mode("nothing") is None


def test_kube_proxy_shares_the_directors_namespace_and_the_api_server_listens_only_on_the_back_network():
    plane = control_plane("kube-proxy", (("mode", "nftables"),))
    addresses = {"director": {"front": "10.213.1.10", "back": "10.213.2.10"},
                 "db-primary": {"back": "10.213.2.21"}, "web-a": {"back": "10.213.2.31"}}
    services = plane.services(addresses, None, ("db-primary", "db-replica"))
    proxy, api = services["kube-proxy"], services["kube-api"]
    assert proxy["network_mode"] == "service:director" and {"networks", "hostname"} <= set(proxy["unset"])
    assert proxy["environment"]["KUBE_PROXY_MODE"] == "nftables"
    assert api["addresses"] == {"back": "10.213.2.40"}
    assert api["environment"]["KUBE_SERVICES"] == "mysql:3306=10.213.2.21", "web-a is not started"
    assert services["director"]["environment"]["LB_SERVICES"] == "", "lbctl programs nothing: kube-proxy does"
    assert plane.lab_settings()["LB_EXPIRE_NODEST_CONN"] == "1"


def test_only_ipvs_mode_needs_a_kernel_with_ipvs():
    assert control_plane("kube-proxy", (("mode", "ipvs"),)).needs_ipvs
    assert not control_plane("kube-proxy", (("mode", "nftables"),)).needs_ipvs
    assert not control_plane("kube-proxy").needs_ipvs, "auto: whatever the kernel has"


def _scenario(control, step):
    return {"control": control, "load": {"probe": {"proto": "mysql"}}, "cells": [{"tcp_retries2": 5}],
            "steps": [step]}


def test_ipvs_mode_on_the_nftables_datapath_is_refused():
    raw = {**_scenario({"kube-proxy": {"mode": "ipvs"}}, {"fault": "node_lost", "target": "db-primary"}),
           "datapath": "nftables"}
    with pytest.raises(ScenarioError, match="programs IPVS"):
        parse(raw, "k.yaml", "k")


@pytest.mark.parametrize("step, message", [
    ({"fault": "node_lost", "target": "db-primary", "replacement": "db-primary"}, "both db-primary"),
    ({"fault": "endpoint_removed", "target": "db-primary", "replacement": "web-b"}, "does not serve mysql"),
    ({"fault": "endpoint_not_ready", "target": "web-a", "replacement": "dns"}, "must be one of"),
])
def test_a_replacement_must_serve_what_the_target_served(step, message):
    with pytest.raises(ScenarioError, match=message):
        parse(_scenario("kube-proxy", step), "k.yaml", "k")


def test_node_lost_waits_its_grace_period_before_the_endpoint_turns_not_ready():
    assert FAULTS["node_lost"].params["grace_s"].default == 40.0, "Kubernetes' node-monitor-grace-period"


def test_lb_noticed_allows_the_sync_as_long_as_kube_proxy_says_it_took():
    plane = control_plane("kube-proxy", (("mode", "ipvs"),))
    [change] = log.changes(log.parse_writes(WRITE), log.parse_syncs(SYNC_V4), {"mysql": 3306})
    death_t = change.cause_t - 4.0
    quick = plane.lb_noticed(change, death_t)            # a host's sync: min-sync-period + the 0.75 s budget
    assert quick.earliest_s == pytest.approx(4.0) and quick.latest_s == pytest.approx(4.0 + 1.0 + 0.75)
    slow = plane.lb_noticed(dataclasses.replace(change, took_s=16.99), death_t)   # a TCG guest's, by its log
    assert slow.latest_s == pytest.approx(4.0 + 1.0 + 16.99) and "16.99 s by its log" in slow.basis
