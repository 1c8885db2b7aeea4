"""A run's phases (harness/run/phases.py): the cleanup is the undos of the phases entered, stage
by stage, one stage's undos side by side; a phase never entered leaves nothing to undo."""
import pytest

from harness.run.phases import KEEP_EVIDENCE, READ_BACK, TAKE_DOWN, UNDO_FAULTS, Phases, Undo


def noop():
    pass


def named(steps):
    return [[doing for doing, _, _ in group] for group in steps]


def full_run():
    phases = Phases()
    phases.enter("bringing the lab up", Undo("taking the lab down", noop, 150, TAKE_DOWN),
                 Undo("merging the timeline", noop, 60, TAKE_DOWN))
    phases.undo_later(Undo("keeping the logs", noop, 90, KEEP_EVIDENCE))
    phases.enter("starting the clients", Undo("stopping the clients", noop, 90, KEEP_EVIDENCE),
                 Undo("reading the ledger", noop, 200, READ_BACK))
    return phases


def test_the_cleanup_runs_stage_by_stage_whatever_order_the_phases_came_in():
    phases = full_run()
    phases.enter("running the steps", Undo("undoing faults", noop, 60, UNDO_FAULTS))
    assert phases.current == "running the steps"
    assert named(phases.cleanup_steps()) == [["undoing faults"], ["keeping the logs", "stopping the clients"],
                                             ["reading the ledger"], ["taking the lab down", "merging the timeline"]]
    assert phases.cleanup_steps()[0] == [("undoing faults", noop, 60)]


def test_a_run_stopped_before_its_steps_has_no_faults_to_undo():
    phases = full_run()
    assert "undoing faults" not in sum(named(phases.cleanup_steps()), [])
    stopped_at_once = Phases()
    assert stopped_at_once.current == "preparing" and stopped_at_once.cleanup_steps() == []


def test_an_undo_in_no_stage_is_refused():
    phases = Phases()
    phases.enter("x", Undo("nothing", noop, 1, 7))
    with pytest.raises(ValueError, match="no cleanup stage 7"):
        phases.cleanup_steps()
