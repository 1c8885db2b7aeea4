"""Cleanup steps (harness/run/base.py run_steps): each is bounded, runs whatever became of the
others, and what failed or overran comes back as a line the run prints, as well as in its events."""
import json
import threading

from harness.interrupts import Cleanup
from harness.run.base import run_steps
from harness.run.events import EventLog


def _events(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_failed_and_an_overrunning_step_are_said_and_the_others_still_run(tmp_path):
    events = EventLog(tmp_path / "events.jsonl")
    released, ran = threading.Event(), []

    def fails():
        raise RuntimeError("docker compose down failed (1): endpoint still attached")

    steps = [("undoing faults", fails, 5),
             [("taking the lab down", lambda: released.wait(30), 0.2), ("merging the timeline", lambda: ran.append(1), 5)]]
    wrong = run_steps(Cleanup(), steps, events)
    released.set()

    assert wrong == ["undoing faults: docker compose down failed (1): endpoint still attached",
                     "taking the lab down: still not done after 0.2 s"]
    assert ran == [1]
    kinds = [(e["event"], e["step"]) for e in _events(tmp_path / "events.jsonl")]
    assert kinds == [("cleanup_failed", "undoing faults"), ("cleanup_overran", "taking the lab down"),
                     ("cleanup_step", "merging the timeline")]


def test_steps_that_all_end_in_time_leave_nothing_to_say(tmp_path):
    events = EventLog(tmp_path / "events.jsonl")
    assert run_steps(Cleanup(), [("keeping the logs", lambda: None, 5)], events) == []
    assert [e["event"] for e in _events(tmp_path / "events.jsonl")] == ["cleanup_step"]
