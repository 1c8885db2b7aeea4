"""The database servers are named by role (db-primary, db-replica) whatever the engine; a
scenario or a recorded run that still says mysql-primary is told so, never read as another server."""
import pytest

from harness import scenario
from harness.scenario.reader import ScenarioError
from harness.store import RunDir


def old_definition():
    _, raw = scenario.load("lvs-switchover")
    steps = [{**step, **{k: v.replace("db-", "mysql-") for k, v in step.items() if isinstance(v, str) and v.startswith("db-")}}
             for step in raw["steps"]]
    return {**raw, "steps": steps}


def test_a_scenario_naming_the_old_server_is_refused_with_its_new_name():
    with pytest.raises(ScenarioError, match="mysql-primary is now called db-primary"):
        scenario.parse_definition(old_definition(), "old.yaml", "old")


def test_a_run_recorded_before_the_rename_is_refused_as_such_not_re_measured(tmp_path):
    run = RunDir.create("old", old_definition(), tmp_path)
    with pytest.raises(ScenarioError, match="recorded when the database servers were called mysql-primary and "
                                            "mysql-replica .now db-primary and db-replica.; its summary.json and page stand"):
        scenario.of_run(run)


def test_a_run_recorded_after_it_is_read(tmp_path):
    _, raw = scenario.load("lvs-switchover")
    assert dict(scenario.of_run(RunDir.create("new", raw, tmp_path)).steps[0].params)["old"] == "db-primary"
