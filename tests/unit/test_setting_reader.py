"""One type for a fault step's params and a control plane's settings (harness/setting.py), read by
one reader (scenario/setting_reader.py): the same kind says the same thing wherever it is declared,
and a range names the bound it has."""
import pytest

from harness.control.base import CONTROL_PLANES
from harness.faults.base import FAULTS
from harness.load.clients import CLIENTS
from harness.pools import POOLS
from harness.scenario import parser
from harness.scenario.reader import ScenarioError
from harness.scenario.setting_reader import read_setting
from harness.setting import Setting

CELLS = [{"tcp_retries2": 5}]


def failover(steps, control=None):
    raw = {"load": {"probe": {}}, "cells": CELLS, "steps": steps}
    return parser.parse({**raw, **({"control": control} if control else {})}, "t.yaml", "t")


def test_faults_control_planes_drivers_and_pools_declare_their_values_with_the_same_type():
    declared = [s for fault in FAULTS.members() for s in fault.params.values()]
    declared += [s for plane in CONTROL_PLANES.members() for s in plane.settings_spec.values()]
    declared += [s for client in CLIENTS.members() for s in client.settings.values()]
    declared += [s for pool in POOLS.members() for s in pool.settings.values()]
    assert declared and all(type(s) is Setting for s in declared)


def test_a_drivers_duration_reads_as_its_documentation_writes_it_and_its_zero_as_none_where_it_says_so():
    go = Setting("go_duration", zero_is_none=True)
    assert read_setting(go, "1m30s", "w") == "1m30s" and go.seconds("1m30s") == 90.0 and go.seconds("0") is None
    with pytest.raises(ScenarioError, match="w: a duration like '2s' or '1500ms', not '2 s'"):
        read_setting(go, "2 s", "w")
    ms = Setting("int", minimum=0, maximum=3_600_000, unit_s=0.001)
    assert read_setting(ms, 3000, "w") == 3000 and ms.seconds(3000) == 3.0 and ms.seconds(0) == 0


def test_a_duration_reads_the_same_for_a_fault_and_a_control_plane():
    with pytest.raises(ScenarioError, match=r"steps\[1\].drain_s: not a duration: 'soon'"):
        failover([{"fault": "silent_kill", "target": "db-primary"},
                  {"fault": "ipvs_swap", "old": "db-primary", "new": "db-replica", "drain_s": "soon"}])
    with pytest.raises(ScenarioError, match=r"control.keepalived.delay_loop: not a duration: 'soon'"):
        failover([{"fault": "silent_kill", "target": "db-primary"}], {"keepalived": {"delay_loop": "soon"}})
    scenario = failover([{"fault": "ipvs_swap", "old": "db-primary", "new": "db-replica", "drain_s": "250ms"}])
    assert dict(scenario.steps[0].params)["drain_s"] == 0.25


def test_a_choice_is_a_string_of_its_choices_and_a_range_names_the_bound_it_has():
    nodest = Setting("str", "drop", choices=("drop", "reset"))
    assert read_setting(nodest, "reset", "w") == "reset"
    with pytest.raises(ScenarioError, match="w: must be one of drop, reset, not 'explode'"):
        read_setting(nodest, "explode", "w")
    with pytest.raises(ScenarioError, match="w: must be a string, not 5"):
        read_setting(nodest, 5, "w")
    with pytest.raises(ScenarioError, match="w: must be at least 1, not 0"):
        read_setting(Setting("int", minimum=1), 0, "w")
    with pytest.raises(ScenarioError, match="w: must be at most 10, not 11"):
        read_setting(Setting("int", maximum=10), 11, "w")
    with pytest.raises(ScenarioError, match="w: must be an integer, not True"):
        read_setting(Setting("int", minimum=1, maximum=10), True, "w")      # a bool is no number
    with pytest.raises(ScenarioError, match="w: at least 0.5 s, not 0.1"):
        read_setting(Setting("duration", minimum=0.5), 0.1, "w")


def test_a_kind_the_reader_does_not_know_is_refused_where_it_is_declared():
    with pytest.raises(ValueError, match="not 'choice'"):
        Setting("choice", "drop", choices=("drop", "reset"))
    with pytest.raises(ValueError, match="how many variants"):
        Setting("variants")
