"""Control planes (harness/control/): each has a contract run, and the manual one reads its own
commands back from a run's events."""
from harness.control import CONTROL_PLANES, control_plane
from tests.control_plane_contract import CONTRACT_RUNS
from tests.unit.test_render import T, write_run


def test_every_control_plane_has_a_contract_run():
    assert set(CONTRACT_RUNS) == set(CONTROL_PLANES)


def test_the_manual_control_plane_changed_the_director_when_its_swap_landed(tmp_path):
    run = write_run(tmp_path)
    plane = control_plane("manual")
    [change] = plane.changes(run)
    assert (change.t, change.uncertainty_s) == (T, 0.2)
    assert change.what == "swap mysql: db-primary -> db-replica" and change.why == "scenario step 0"
    # the operator's command is the change: noticed when typed, however long after a death
    window = plane.lb_noticed(change, death_t=T - 7.0)
    assert (window.earliest_s, window.expected_s, window.latest_s) == (7.0, 7.0, 7.2)
    assert plane.services({}, None, ()) == {} and plane.lab_settings() == {}


def test_each_contract_run_is_a_test_that_checks_the_planes_changes():
    """CONTRACT_RUNS names real tests: each id's function is in its file and calls check_changes,
    itself or through a helper of its module (a recipe's newcomer once had only the string to go by)."""
    import ast
    from pathlib import Path
    repo = Path(__file__).parents[2]

    def calls(function):
        return {node.func.id for node in ast.walk(function) if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)}

    for plane, test_id in CONTRACT_RUNS.items():
        file, _, name = test_id.partition("::")
        functions = {node.name: node for node in ast.parse((repo / file).read_text()).body
                     if isinstance(node, ast.FunctionDef)}
        test = functions.get(name.split("[")[0])
        assert test is not None, f"{plane}: {test_id} is no test function of {file}"
        reached = calls(test) | {called for helper in calls(test) & set(functions) for called in calls(functions[helper])}
        assert "check_changes" in reached, f"{plane}: {test_id} does not call check_changes"
