"""A fault step (harness/run/steps.py): the run's view goes on reading the clients while the fault
lands, the step's times are the fault's own, and a run interrupted while a fault lands still has
that fault to undo."""
import json
import threading
import time

import pytest

from harness.measure.effects import NONE, Effect, Landing
from harness.run.events import EventLog
from harness.run.steps import Steps
from harness.scenario.model import Step


class SlowFault:
    """Lands once `release` is set; counts its recoveries."""
    name = "slow"
    release = threading.Event()
    landed = threading.Event()
    recovered = 0

    def __init__(self, lab, **params):
        pass

    def effect(self):
        return Effect(NONE)

    def stops(self):
        return set()

    def inject(self):
        assert SlowFault.release.wait(10), "the test never let the fault land"
        SlowFault.landed.set()
        return Landing()

    def recover(self):
        SlowFault.recovered += 1


class Lab:
    def now(self):
        return time.time()


class View:
    t_fault = None

    def __init__(self):
        self.notes = []

    def fault_started(self, t, observe_s, effect):
        self.t_fault = t

    def note(self, text, now=None):
        self.notes.append(text)


@pytest.fixture(autouse=True)
def fresh_fault():
    SlowFault.release, SlowFault.landed, SlowFault.recovered = threading.Event(), threading.Event(), 0


def _steps(tmp_path, follow):
    return Steps(Lab(), EventLog(tmp_path / "events.jsonl"), View(), watch=lambda until: None, follow=follow,
                 observe_s=30)


def test_the_view_is_followed_while_the_fault_lands_and_the_step_ends_when_it_landed(tmp_path):
    followed_before_landing, seen_landed_at = [], []

    def follow(work):
        followed_before_landing.append(not SlowFault.landed.is_set() and not work.done())
        SlowFault.release.set()
        work.result(10)
        seen_landed_at.append(time.time())
        time.sleep(0.2)                   # a late last tick of the view: not part of the fault's time

    steps = _steps(tmp_path, follow)
    steps.take(0, Step("fault", "slow", fault=SlowFault))
    assert followed_before_landing == [True]
    event = json.loads((tmp_path / "events.jsonl").read_text().splitlines()[-1])
    assert event["started_t"] <= event["done_t"] <= seen_landed_at[0]
    assert steps.injected and steps.injected[0].name == "slow"


def test_a_run_interrupted_while_a_fault_lands_waits_for_it_and_undoes_it(tmp_path):
    def follow(work):
        threading.Timer(0.3, SlowFault.release.set).start()
        raise KeyboardInterrupt           # Ctrl-C while the fault is still landing

    steps = _steps(tmp_path, follow)
    with pytest.raises(KeyboardInterrupt):
        steps.take(0, Step("fault", "slow", fault=SlowFault))
    assert SlowFault.landed.is_set()      # the step waited for it before the interrupt went on
    steps.undo()
    assert SlowFault.recovered == 1


def test_a_fault_that_failed_to_land_is_not_undone_and_its_error_is_the_steps(tmp_path):
    def inject(self):
        raise RuntimeError("nft: no such table")

    broken = type("BrokenFault", (SlowFault,), {"inject": inject})
    steps = _steps(tmp_path, lambda work: work.exception(10))
    with pytest.raises(RuntimeError, match="no such table"):
        steps.take(0, Step("fault", "slow", fault=broken))
    steps.undo()
    assert steps.injected == [] and SlowFault.recovered == 0
