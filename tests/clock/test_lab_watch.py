"""The run's look at its lab (harness/run/lab_watch.py): a slow answer from the engine does not
hold the run's clock, what it found is raised at the next tick, and a container a fault stopped
is not a problem."""
import threading
import time

import pytest

from harness.errors import LabError
from harness.run import lab_watch
from harness.run.lab_watch import LabWatch


class Lab:
    """A lab whose engine answers `problems` after `answer` is set."""

    def __init__(self, problems):
        self.found, self.answer, self.asked = problems, threading.Event(), 0

    def problems(self):
        self.asked += 1
        self.answer.wait(30)
        return self.found


def _ticks_until_raised(watch, now, limit_s=10):
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        watch.tick(now)
        time.sleep(0.01)
    raise AssertionError("nothing raised")


def test_a_slow_look_does_not_hold_the_tick_and_what_it_found_is_raised_next(tmp_path):
    lab = Lab({"db-primary": "db-primary: exited (exit code 137)"})
    watch = LabWatch(lab, tmp_path, lambda: set())
    started = time.monotonic()
    watch.tick(100.0)
    watch.tick(100.1)
    assert time.monotonic() - started < 1.0 and lab.asked == 1
    lab.answer.set()
    with pytest.raises(LabError, match="exit code 137"):
        _ticks_until_raised(watch, 100.2)
    watch.close()


def test_a_container_a_fault_stopped_is_not_a_problem_and_the_next_look_waits_its_turn(tmp_path):
    lab = Lab({"db-primary": "db-primary: exited (exit code 137)"})
    lab.answer.set()
    watch = LabWatch(lab, tmp_path, lambda: {"db-primary"})
    watch.tick(100.0)
    time.sleep(0.2)
    watch.tick(100.5)
    watch.tick(101.0)
    assert lab.asked == 1
    watch.tick(100.0 + lab_watch.CHECK_EVERY_S)
    time.sleep(0.2)
    assert lab.asked == 2
    watch.close()


def test_an_engine_that_never_answers_ends_the_run(tmp_path, monkeypatch):
    monkeypatch.setattr(lab_watch, "UNANSWERED_LIMIT_S", 5.0)
    lab = Lab({})
    watch = LabWatch(lab, tmp_path, lambda: set())
    watch.tick(100.0)
    watch.tick(104.0)
    with pytest.raises(LabError, match="has not said in 5 s"):
        watch.tick(105.5)
    lab.answer.set()
    watch.close()
