"""Each fault declares what it does to existing flows; the model reads only that."""
import pytest

from harness.measure.effects import Effect
from harness.faults import FAULTS
from harness.measure.predict import predict
from harness.scenario import Cell, parse, parse_definition

SWAP = {"service": "mysql", "old": "db-primary", "new": "db-replica", "nodest": "drop", "drain_s": 0.0}


@pytest.mark.parametrize("name, params, effect", [
    ("ipvs_swap", SWAP, Effect("blackhole")),
    ("ipvs_swap", {**SWAP, "nodest": "reset"}, Effect("reset")),
    ("ipvs_swap", {**SWAP, "drain_s": 5.0}, Effect("reset", after_s=5.0)),
    ("silent_kill", {"target": "db-primary"}, Effect("blackhole")),
    ("host_silent", {"target": "db-primary"}, Effect("blackhole")),
    ("dns_move", {"to": "db-replica"}, Effect("none")),
    ("iptables_drop", {"a": "director", "b": "db-primary"}, Effect("partition")),
    ("app_hang", {"target": "db-primary"}, Effect("app_hang")),
    ("lb_idle_timeout", {"seconds": 20.0}, Effect("lb_forgets_flow", idle_timeout_s=20.0)),
    ("promote_replica", {"target": "db-replica"}, Effect("none")),
    ("read_only", {"target": "db-primary"}, Effect("none")),
    ("end_connections", {"target": "db-primary"}, Effect("reset")),
    ("backend_restart", {"target": "web-a"}, Effect("reset")),
    ("director_kill", {"target": "director"}, Effect("blackhole")),
    ("syn_limit", {"target": "db-primary", "rate_per_s": 40, "burst": 5}, Effect("none")),
    ("rx_stall", {"target": "db-primary", "stall": 0.2, "every": 5.0}, Effect("none")),
    ("slow_link", {"node": "director", "delay": 0.05, "jitter": 0.01, "loss_pct": 0.0}, Effect("none")),
    ("replication_cut", {"replica": "db-replica", "primary": "db-primary"}, Effect("none")),
    ("endpoint_not_ready", {"target": "db-primary", "replacement": "none"}, Effect("none")),
    ("endpoint_removed", {"target": "db-primary", "replacement": "db-replica", "grace_s": 2.0}, Effect("reset")),
    ("node_lost", {"target": "db-primary", "replacement": "db-replica", "grace_s": 4.0}, Effect("blackhole")),
    ("haproxy_server", {"target": "db-primary", "state": "maint", "sessions": "keep"}, Effect("none")),
    ("haproxy_server", {"target": "db-primary", "state": "maint", "sessions": "shutdown"}, Effect("reset")),
    ("aws_deregister", {"target": "db-primary", "delay_s": 300.0, "connection_termination": False}, Effect("none")),
    ("aws_deregister", {"target": "db-primary", "delay_s": 20.0, "connection_termination": True},
     Effect("reset", after_s=20.0)),
])
def test_each_fault_declares_its_effect(name, params, effect):
    assert FAULTS[name](None, **params).effect() == effect
    assert Effect.from_record(effect.to_record()) == effect


def test_every_registered_fault_is_covered_above():
    covered = {"ipvs_swap", "silent_kill", "iptables_drop", "app_hang", "lb_idle_timeout", "promote_replica",
               "backend_restart", "director_kill", "syn_limit", "rx_stall", "slow_link", "replication_cut",
               "endpoint_not_ready", "endpoint_removed", "node_lost", "haproxy_server", "aws_deregister",
               "host_silent", "dns_move", "read_only", "end_connections"}
    assert set(FAULTS) == covered


def test_an_unknown_effect_is_refused():
    with pytest.raises(ValueError, match="effect must be one of"):
        Effect("meteor")


def test_backend_restart_is_a_scenario_step_and_its_clients_expect_a_reset_at_their_next_request():
    raw = {"load": {"probe": {"proto": "http"}}, "cells": [{"tcp_retries2": 15}],
           "steps": [{"fault": "backend_restart", "target": "web-a"}]}
    step = parse(raw, "r.yaml", "r").steps[0]
    effect = step.effect()
    window = predict(Cell("r15", (("tcp_retries2", 15),)), effect, interval_s=0.1, inject_s=1.0)
    # The budget of tcp_retries2=15 (924.6 s, docs/facts/kernel.md) plays no part: a reset ends the wait.
    assert window.basis == "reset at the next packet"
    assert window.latest_s < 2.0 and window.contains(0.3)


def test_times_count_from_the_first_fault_existing_flows_notice():
    from harness.measure.run_record import first_fault
    cut = {"source": "harness", "event": "fault", "t": 10.0, "name": "replication_cut", "effect": {"kind": "none"}}
    swap = {"source": "harness", "event": "fault", "t": 15.0, "name": "ipvs_swap", "effect": {"kind": "blackhole"}}
    assert first_fault([cut, swap]) is swap
    assert first_fault([cut]) is cut, "a run whose every fault goes unnoticed counts from its first"
    assert first_fault([]) is None
    # a run from before fault events recorded their effect: the step's own, from the run's scenario
    old = {key: value for key, value in swap.items() if key != "effect"}
    with pytest.raises(ValueError, match="records no effect"):
        first_fault([dict(cut, step=0), dict(old, step=1)])
    scenario = parse_definition({"load": {"probe": {"proto": "mysql", "interval_ms": 100}}, "cells": [{"tcp_retries2": 5}], "steps": [
        {"fault": "replication_cut"}, {"fault": "ipvs_swap", "service": "mysql", "old": "db-primary",
                                       "new": "db-replica", "nodest": "drop"}]}, "x", "x")
    unmarked_cut = {key: value for key, value in cut.items() if key != "effect"}
    assert first_fault([dict(unmarked_cut, step=0), dict(old, step=1)], scenario)["name"] == "ipvs_swap"
