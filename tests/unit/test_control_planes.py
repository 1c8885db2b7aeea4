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
