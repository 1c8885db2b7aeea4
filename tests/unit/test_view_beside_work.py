"""What a run does between its steps and its watch (the directors' tables read after the steps)
happens beside its view, which goes on reading the clients: a workshop's narration stood still
4 s for that read on a busy machine, and its first block after the fault came after a read
timeout of 5 s had already ended (a CI run, 2026-12-06)."""
import threading
import time

import pytest

from harness.run.watching import WatchesTheClients


class View:
    def __init__(self, ticks_wanted):
        self.started, self.ticks, self.enough = time.time(), 0, threading.Event()
        self.ticks_wanted = ticks_wanted

    def tick(self, now):
        self.ticks += 1
        if self.ticks >= self.ticks_wanted:
            self.enough.set()


class Lab:
    def now(self):
        return time.time()


class Run(WatchesTheClients):
    def __init__(self, view):
        self.view, self.lab = view, Lab()


def test_the_view_ticks_while_the_work_runs_and_the_work_ends_first():
    run = Run(View(ticks_wanted=3))
    finished = []

    def work():
        assert run.view.enough.wait(10), "the view stood still while the work ran"
        finished.append(run.view.ticks)
    run._beside_the_view(work, "test")
    assert finished and finished[0] >= 3


def test_what_the_work_raises_reaches_the_run():
    def work():
        raise RuntimeError("the director did not answer")
    with pytest.raises(RuntimeError, match="did not answer"):
        Run(View(ticks_wanted=1))._beside_the_view(work, "test")
