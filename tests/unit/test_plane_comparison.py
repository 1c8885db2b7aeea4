"""make compare-control-planes: every plane's scenario exists, and a plane that promotes a replica by
itself (Patroni) has its promotion beside each cell."""
from harness import plane_comparison, scenario
from harness.control import CONTROL_PLANES
from harness.measure import comparison


def _summary(name, promotion=None):
    cell = {"cell": "r5", "probe": {"detect_s": None, "recover_s": None, "error": None, "within_window": True},
            "predicted": {"expected_s": 938.0, "earliest_s": 928.9, "latest_s": 948.5, "basis": "b"}}
    signals = {"lb": {"promotion": promotion}} if promotion else {}
    return {"scenario": name, "run": f"{name}-run", "cells": [cell], "signals": signals, "observed_s": 120.0}


def test_every_plane_runs_a_scenario_of_its_own_control_plane():
    for _, scenario_id, _ in plane_comparison.PLANES:
        parsed, _ = scenario.load(scenario_id, None)
        assert parsed.control in CONTROL_PLANES
    assert {scenario.load(s, None)[0].control for _, s, _ in plane_comparison.PLANES} >= {"patroni", "haproxy"}


def test_a_promotion_by_the_control_plane_is_shown_beside_the_cell():
    promotion = {"by": "Patroni", "promoted_s": 30.025, "server": "db-replica"}
    result = comparison.compare([("haproxy", _summary("control-haproxy-failover"), {}),
                                 ("patroni", _summary("control-patroni-failover", promotion), {})])
    views = result["cells"][0]["by_run"]
    assert views["patroni"]["promoted"] == ["Patroni", 30.025] and views["haproxy"]["promoted"] is None
