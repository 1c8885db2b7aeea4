"""make compare-control-planes: every plane's scenario exists, and a plane that promotes a replica by
itself (Patroni) has its promotion beside each cell."""
from harness import plane_comparison, scenario
from harness.control import CONTROL_PLANES
from harness.measure import comparison, summary_record


def _summary(name, promotion=None):
    cell = {"cell": "r5", "probe": {"detect_s": None, "recover_s": None, "error": None, "within_window": True},
            "predicted": {"expected_s": 938.0, "earliest_s": 928.9, "latest_s": 948.5, "basis": "b"}}
    signals = {"lb": {"promotion": promotion}} if promotion else {}
    return {"scenario": name, "run": f"{name}-run", "cells": [cell], "signals": signals, "observed_s": 120.0}


def compare(*runs):
    """The comparison of (label, summary.json's mapping, env) runs."""
    return comparison.compare([(label, summary_record.read(summary), env) for label, summary, env in runs])


def test_every_plane_runs_a_scenario_of_its_own_control_plane():
    for _, scenario_id, _ in plane_comparison.PLANES:
        parsed, _ = scenario.load(scenario_id, None)
        assert parsed.control in CONTROL_PLANES
    assert {scenario.load(s, None)[0].control for _, s, _ in plane_comparison.PLANES} >= {"patroni", "haproxy"}


def test_a_promotion_by_the_control_plane_is_shown_beside_the_cell():
    promotion = {"by": "Patroni", "promoted_s": 30.025, "server": "db-replica"}
    result = compare(("haproxy", _summary("control-haproxy-failover"), {}),
                     ("patroni", _summary("control-patroni-failover", promotion), {}))
    views = result.as_json()["cells"][0]["by_run"]
    assert views["patroni"]["promoted"] == ["Patroni", 30.025] and views["haproxy"]["promoted"] is None


def test_a_change_a_scenario_step_made_is_shown_beside_the_cell_as_the_step_said_it():
    """The dns plane's change is the name re-pointed by its step (manual's the swap): the page says
    when, in the plane's words; a plane that acts by itself has its cells' LB noticed instead."""
    from harness.report.comparison_page import cell_entry
    moved = {"what": "db.lab -> 10.213.1.122 (db-replica)", "at_s": 4.525}
    dns = _summary("control-dns-failover")
    dns["signals"] = {"lb": {"stepped": moved}}
    result = compare(("manual", _summary("control-manual-failover"), {}), ("dns", dns, {}))
    views = result.as_json()["cells"][0]["by_run"]
    assert views["dns"]["stepped"] == ["db.lab -> 10.213.1.122 (db-replica)", 4.525] and views["manual"]["stepped"] is None
    assert "changed 4.53 s: db.lab -&gt; 10.213.1.122 (db-replica)" in cell_entry(result.cells[0].by_run["dns"])


def test_a_cell_a_run_could_not_judge_is_unknown_with_why_never_a_finding():
    from harness.report.comparison_page import cell_entry
    why = "no error yet when the run interrupted while observing"
    stopped = _summary("control-keepalived-failover")
    stopped["cells"][0]["probe"].update(within_window=None, verdict={"value": "unknown", "why": why, "evidence": []})
    erred = _summary("control-manual-failover")
    erred["cells"][0]["probe"].update(detect_s=13.4, within_window=True,
                                      verdict={"value": "valid", "why": "inside", "evidence": []})
    result = compare(("manual", erred, {}), ("keepalived", stopped, {}))
    [flag] = result.cells[0].flags
    assert flag.what == f"not decided on keepalived ({why})"
    views = result.cells[0].by_run
    assert f"title='{why}'>unknown</span>" in cell_entry(views["keepalived"]) and "unknown" not in cell_entry(views["manual"])
