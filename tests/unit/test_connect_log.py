"""The connect prober's lines read back: counts, nearest-rank percentiles, phases, SYN groups."""
import json

import pytest

from harness.signals.connect import connect_log
from harness.scenario import ScenarioError, parse


def lines(*records):
    return "\n".join(json.dumps(r) for r in records) + "\n"


def test_parse_keeps_connects_and_the_totals_and_skips_a_torn_line():
    text = lines({"t0": 10.0, "s": 0.001, "syn_retrans": 0},
                 {"t0": 10.01, "s": None, "syn_retrans": 2, "err": "TIMEOUT"},
                 {"end": 12.0, "sent": 2, "skipped": 0}) + '{"t0": 11'
    connects, totals = connect_log.parse(text)
    assert [c.ok for c in connects] == [True, False]
    assert connects[1].error == "TIMEOUT" and connects[1].syn_retrans == 2
    assert totals == {"end": 12.0, "sent": 2, "skipped": 0}
    assert connect_log.parse('{"t0": 1.0, "s": 0.1}\n')[1] is None


def test_nearest_rank_percentiles_of_a_hundred_are_their_own_values():
    values = list(range(1, 101))
    assert connect_log.nearest_rank(values, 0.5) == 50
    assert connect_log.nearest_rank(values, 0.99) == 99
    assert connect_log.nearest_rank(values, 0.999) == 100       # of fewer than 1000: the maximum
    assert connect_log.nearest_rank([7], 0.5) == 7


def test_stats_count_every_connect_and_rank_only_the_established():
    connects = [connect_log.Connect(0.0, s / 1000) for s in range(1, 100)] + [
        connect_log.Connect(0.0, None, "TIMEOUT", 3), connect_log.Connect(0.0, None, "ECONNREFUSED")]
    entry = connect_log.stats(connects)
    assert (entry["n"], entry["ok"], entry["failed"]) == (101, 99, 2)
    assert (entry["p50"], entry["p99"], entry["p99_9"], entry["max"]) == (50.0, 99.0, 99.0, 99.0)
    assert entry["by_error"] == {"ECONNREFUSED": 1, "TIMEOUT": 1}
    assert connect_log.stats([]) == {"n": 0, "ok": 0, "failed": 0, "p50": None, "p99": None, "p99_9": None,
                                     "max": None}


def test_per_second_buckets_by_start_relative_to_the_fault_and_phases_split_at_fault_and_heal():
    connects = [connect_log.Connect(99.5, 0.001), connect_log.Connect(100.2, 1.01, syn_retrans=1),
                connect_log.Connect(100.7, 0.002), connect_log.Connect(120.1, 0.001)]
    seconds = connect_log.per_second(connects, 100.0)
    assert [(s["t"], s["n"]) for s in seconds] == [(-1, 1), (0, 2), (20, 1)]
    assert seconds[1]["max"] == 1010.0
    phases = connect_log.phases(connects, 100.0, 120.0)
    assert [phases[p]["n"] for p in ("before", "during", "after")] == [1, 2, 1]
    assert "after" not in connect_log.phases(connects, 100.0)


def test_groups_by_syn_retransmissions_show_the_schedule():
    connects = [connect_log.Connect(0, 0.001), connect_log.Connect(0, 1.003, syn_retrans=1),
                connect_log.Connect(0, 1.02, syn_retrans=1), connect_log.Connect(0, None, "TIMEOUT", 4)]
    assert connect_log.by_syn_retransmissions(connects) == {
        0: {"ok": 1, "failed": 0, "min_s": 0.001, "max_s": 0.001},
        1: {"ok": 2, "failed": 0, "min_s": 1.003, "max_s": 1.02},
        4: {"ok": 0, "failed": 1, "min_s": None, "max_s": None}}


BASE = {"load": {"probe": {"proto": "mysql"}}, "cells": [{"tcp_retries2": 5}],
        "steps": [{"fault": "syn_limit", "target": "db-primary", "rate_per_s": 40}]}


def test_a_scenario_asks_for_the_prober_and_its_bad_settings_are_named():
    s = parse({**BASE, "load": {**BASE["load"], "connect": {"rate_per_s": 50, "timeout_s": "3s"}}})
    assert (s.connect.rate_per_s, s.connect.timeout_s) == (50, 3.0)
    assert parse(BASE).connect is None
    with pytest.raises(ScenarioError, match="load.connect.rate_per_s"):
        parse({**BASE, "load": {**BASE["load"], "connect": {"rate_per_s": 0}}})
    with pytest.raises(ScenarioError, match="load.connect"):
        parse({**BASE, "load": {**BASE["load"], "connect": {"rate": 5}}})


def test_the_syn_limit_fault_wants_a_whole_rate():
    with pytest.raises(ScenarioError, match="rate_per_s.*whole number"):
        parse({**BASE, "steps": [{"fault": "syn_limit", "target": "db-primary", "rate_per_s": "fast"}]})
    with pytest.raises(ScenarioError, match="rate_per_s: required"):
        parse({**BASE, "steps": [{"fault": "syn_limit", "target": "db-primary"}]})


def test_connect_probe_override_adds_sets_or_removes_the_prober():
    from harness.scenario import load
    assert load("lvs-switchover", {"CONNECT_PROBE": "50"})[0].connect.rate_per_s == 50
    assert load("syn-throttle", {"CONNECT_PROBE": "0"})[0].connect is None
    assert load("syn-throttle", {"CONNECT_PROBE": "20"})[0].connect.timeout_s == 5.0
    with pytest.raises(ScenarioError, match="CONNECT_PROBE: must be a whole number"):
        load("lvs-switchover", {"CONNECT_PROBE": "lots"})
    with pytest.raises(ScenarioError, match="CONNECT_PROBE: only a failover"):
        load("backlog-overflow", {"CONNECT_PROBE": "50"})
    with pytest.raises(ScenarioError, match="rate_per_s"):
        load("lvs-switchover", {"CONNECT_PROBE": "5000"})


def test_stalls_are_read_from_the_targets_log_in_pairs():
    from harness.signals.connect import stall_log
    log = ("2026-11-25T19:00:00.000Z rx-stall block 100.5\n2026-11-25T19:00:00.2Z rx-stall release 100.71\n"
           "mysqld: ready\n2026-11-25T19:00:05Z rx-stall block 105.5\n")
    assert stall_log.stalls(log) == [(100.5, 100.71)]
    assert stall_log.overlaps(100.6, 100.65, [(100.5, 100.71)])
    assert not stall_log.overlaps(100.72, 101.0, [(100.5, 100.71)])


def test_before_the_fault_counts_from_the_warm_up_on():
    connects = [connect_log.Connect(90.0, 0.5), connect_log.Connect(95.0, 0.001), connect_log.Connect(101.0, 0.001)]
    assert connect_log.phases(connects, 100.0, t_ready=94.0)["before"]["n"] == 1
    assert connect_log.phases(connects, 100.0)["before"]["n"] == 2
