"""A run's background work ends when the run's cleanup tells it to: a wait in it at its next poll,
and what outlives the limit is named (real threads, a lab that is never healthy)."""
import threading
import time

import pytest

from harness.errors import LabError
from harness.lab import health_check_loop
from harness.run.background import Background


class NeverHealthy:
    """A lab whose one server stays 'starting' and whose own check never passes."""
    def health(self):
        return {"db-replica": "starting"}

    def check_until_passes(self, service, timeout_s):
        time.sleep(0.2)
        return False


def test_a_health_wait_in_the_background_ends_once_the_run_stops_it():
    background = Background("test-background")
    waiting = background.submit("waiting for the servers' health checks", health_check_loop.wait_healthy,
                                NeverHealthy(), ["db-replica"], 480, True, background.stopping)
    time.sleep(0.6)
    assert background.running() == ["waiting for the servers' health checks"]
    background.stop(limit_s=5)
    assert background.running() == []
    with pytest.raises(LabError, match="stopped waiting for db-replica: the run is ending"):
        waiting.result(timeout=0)
    assert not [t for t in threading.enumerate() if t.name.startswith("test-background")]


def test_a_task_that_outlives_the_stop_is_named():
    background = Background("test-background")
    release = threading.Event()
    background.submit("keeping the director's table", release.wait, 30)
    done = background.submit("recording env.json", lambda: "env")
    with pytest.raises(LabError, match=r"still running 0.3 s after .*: keeping the director's table$"):
        background.stop(limit_s=0.3)
    assert done.result(timeout=0) == "env"
    release.set()
    background.stop(limit_s=5)
    assert background.running() == []


def test_a_task_failing_hands_its_error_to_whoever_asks():
    background = Background("test-background")
    failed = background.submit("recording env.json", lambda: 1 / 0)
    background.stop(limit_s=5)
    with pytest.raises(ZeroDivisionError):
        failed.result(timeout=0)
