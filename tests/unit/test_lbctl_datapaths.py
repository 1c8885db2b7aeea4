import os
import shutil
import subprocess

import pytest

from lbctl import ipvs, nftables
from lbctl.state import State

VIP, A, B = "10.1.0.10:80", "10.2.0.31:80", "10.2.0.32:80"


def swapped_state(nodest="drop", drain_s=0.0, now=1000.0):
    state = State(datapath="x", idle_timeout_s=20)
    state.add(VIP, A)
    state.remove(VIP, A, nodest, drain_s, now=now)
    state.add(VIP, B)
    return state


def test_nftables_dnats_the_vip_to_its_only_backend_with_the_idle_timeout():
    state = State(idle_timeout_s=20)
    state.add(VIP, A)
    text = nftables.render(state, now=0)
    assert 'ip daddr 10.1.0.10 tcp dport 80 ct timeout set "lb_idle" dnat to 10.2.0.31:80' in text
    assert "policy = { established: 20 };" in text
    assert "ct status dnat masquerade" in text


def test_nftables_spreads_over_several_backends():
    state = State()
    state.add(VIP, A)
    state.add(VIP, B)
    assert "numgen inc mod 2 map { 0 : 10.2.0.31:80, 1 : 10.2.0.32:80 }" in nftables.render(state, now=0)


def test_nftables_removed_backend_goes_to_the_set_of_its_policy():
    dropped = nftables.render(swapped_state("drop"), now=1000)
    reset = nftables.render(swapped_state("reset"), now=1000)
    assert "set removed_drop {\n    type ipv4_addr . inet_service\n    elements = { 10.2.0.31 . 80 }" in dropped
    assert "set removed_reset {\n    type ipv4_addr . inet_service\n  }" in dropped
    assert "set removed_reset {\n    type ipv4_addr . inet_service\n    elements = { 10.2.0.31 . 80 }" in reset
    assert "dnat to 10.2.0.32:80" in reset and "dnat to 10.2.0.31:80" not in reset


def test_nftables_drain_element_carries_the_remaining_time():
    text = nftables.render(swapped_state(drain_s=3.0, now=1000.0), now=1001.0)
    assert "elements = { 10.2.0.31 . 80 timeout 2000ms }" in text
    assert "removed_reset {\n    type ipv4_addr . inet_service\n    elements = { 10.2.0.31 . 80 }" in text
    after = nftables.render(swapped_state(drain_s=3.0, now=1000.0), now=1003.5)
    assert "timeout" not in after.split("set draining")[1].split("}")[0].replace("flags timeout", "")


def test_nftables_drain_forwards_both_directions_before_any_removed_rule_applies():
    rules = [line.strip() for line in nftables.render(swapped_state(drain_s=3.0), now=1001.0).splitlines()]
    first_removed = min(i for i, rule in enumerate(rules) if "@removed_" in rule)
    for direction, field in (("original", "daddr . tcp dport"), ("reply", "saddr . tcp sport")):
        accept = rules.index(f"ct direction {direction} ip {field} @draining accept")
        assert accept < first_removed, f"{direction} packets of a draining flow meet a removed_* rule first"


def test_nftables_drops_a_forgotten_flows_packets_only_when_told():
    state = State(idle_timeout_s=60)
    state.add(VIP, A)
    rule = "ct state invalid ip daddr 10.1.0.10 tcp dport 80 drop"
    assert rule not in nftables.render(state, now=0)
    state.forgotten_flows = "drop"
    text = nftables.render(state, now=0)
    assert rule in text and "type filter hook prerouting priority -150" in text   # after conntrack, before DNAT


def test_nftables_replaces_the_table_in_one_transaction():
    lines = nftables.render(State(), now=0).splitlines()
    assert lines[:3] == ["table ip blackhole_lb {}", "delete table ip blackhole_lb", "table ip blackhole_lb {"]


SAVED = """-A -t 10.1.0.10:80 -s rr
-a -t 10.1.0.10:80 -r 10.2.0.31:80 -m -w 1
"""


def test_ipvs_parse_saved_table():
    assert ipvs.parse_saved(SAVED) == {VIP: {A: 1}}


def test_ipvs_plan_for_the_seed_swap_is_delete_then_add():
    wanted = ipvs.desired(swapped_state("drop"), now=1000)
    assert ipvs.plan(ipvs.parse_saved(SAVED), wanted, 900) == [
        ["-d", "-t", VIP, "-r", A],
        ["-a", "-t", VIP, "-r", B, "-m", "-w", "1"],
        ["--set", "900", "120", "300"],
    ]


def test_ipvs_plan_drains_with_weight_zero_then_deletes():
    state = swapped_state(drain_s=3.0, now=1000.0)
    current = ipvs.parse_saved(SAVED)
    during = ipvs.plan(current, ipvs.desired(state, now=1001), 900)
    assert ["-e", "-t", VIP, "-r", A, "-m", "-w", "0"] in during
    assert not any(c[0] == "-d" for c in during)
    after = ipvs.plan(current, ipvs.desired(state, now=1003.1), 900)
    assert after[0] == ["-d", "-t", VIP, "-r", A]


def test_ipvs_plan_is_empty_when_nothing_changed():
    state = State(idle_timeout_s=900)
    state.add(VIP, A)
    assert ipvs.plan(ipvs.parse_saved(SAVED), ipvs.desired(state, 0), 900) == [["--set", "900", "120", "300"]]


def test_ipvs_table_drops_server_packets_to_the_shared_address_that_no_flow_maps_back():
    shared = ipvs.table_definition("10.213.2.9")
    assert "snat to 10.213.2.9" in shared
    assert "type filter hook input priority filter; policy accept;\n    ip daddr 10.213.2.9 meta l4proto tcp" in shared
    own = ipvs.table_definition()
    assert "masquerade" in own and "hook input" not in own


@pytest.mark.skipif(not shutil.which("nft") or os.geteuid() != 0, reason="needs nft and root (a new network namespace)")
@pytest.mark.parametrize("snat_address", ["", "10.213.2.9"])
def test_ipvs_table_is_one_nft_accepts(snat_address):
    checked = subprocess.run(["unshare", "--net", "nft", "--check", "-f", "-"], capture_output=True, text=True,
                             input=ipvs.table_definition(snat_address))
    assert checked.returncode == 0, checked.stderr
