"""kube-proxy's sync metrics read back (lines as kube-proxy 1.34 served them in this lab's
director, nftables mode, after its first sync), and when they say it has acted on a change."""
import dataclasses

import pytest

from harness.control.kube_proxy_metrics import SyncState, caught_up, parse

AFTER_FIRST_SYNC = """\
kubeproxy_sync_proxy_rules_duration_seconds_sum{ip_family="IPv4"} 0.039097838
kubeproxy_sync_proxy_rules_duration_seconds_count{ip_family="IPv4"} 1
kubeproxy_sync_proxy_rules_endpoint_changes_pending 0
kubeproxy_sync_proxy_rules_endpoint_changes_total 2
kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds{ip_family="IPv4"} 1.7957137985173986e+09
kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds{ip_family="IPv6"} 1.795713798517422e+09
kubeproxy_sync_proxy_rules_last_timestamp_seconds{ip_family="IPv4"} 1.7957137986574001e+09
kubeproxy_sync_proxy_rules_last_timestamp_seconds{ip_family="IPv6"} 1.7957137986934094e+09
kubeproxy_sync_proxy_rules_service_changes_total 4
"""
BEFORE = parse(AFTER_FIRST_SYNC)


def test_the_ipv4_figures_are_read_and_the_ipv6_ones_left():
    assert BEFORE == SyncState(endpoint_changes_total=2, endpoint_changes_pending=0,
                               last_queued_t=1795713798.5173986, last_synced_t=1795713798.6574001)


def test_a_page_without_the_sync_figures_is_refused():
    with pytest.raises(ValueError, match="last_timestamp_seconds"):
        parse(AFTER_FIRST_SYNC.replace("last_timestamp", "other"))


def later(**changed):
    return dataclasses.replace(BEFORE, **changed)


def test_nothing_received_since_is_not_caught_up():
    assert not caught_up(BEFORE, BEFORE)


def test_a_change_received_and_not_yet_taken_by_a_sync_is_not_caught_up():
    assert not caught_up(BEFORE, later(endpoint_changes_total=3, endpoint_changes_pending=1,
                                       last_queued_t=1795713810.0))


def test_a_sync_that_took_the_change_but_has_not_ended_is_not_caught_up():
    assert not caught_up(BEFORE, later(endpoint_changes_total=3, last_queued_t=1795713810.0))


def test_a_sync_under_way_when_the_change_came_leaves_it_pending():
    assert not caught_up(BEFORE, later(endpoint_changes_total=3, endpoint_changes_pending=1,
                                       last_queued_t=1795713810.0, last_synced_t=1795713811.0))


def test_the_change_taken_and_its_sync_ended_is_caught_up():
    assert caught_up(BEFORE, later(endpoint_changes_total=3, last_queued_t=1795713810.0,
                                   last_synced_t=1795713827.0))
