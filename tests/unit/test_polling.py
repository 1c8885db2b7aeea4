"""harness/polling.py on a clock of its own: an answer in time, a death said at once, a limit kept."""
import pytest

from harness import polling
from harness.errors import LabError


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def test_until_answers_as_soon_as_ready_and_false_at_its_limit():
    clock = Clock()
    assert polling.until(lambda: clock.now >= 1.0, 5, poll_s=0.5, clock=clock, sleep=clock.sleep)
    assert clock.now == 1.0
    clock = Clock()
    assert not polling.until(lambda: False, 2, poll_s=0.5, clock=clock, sleep=clock.sleep)
    assert clock.now == 2.0


def test_wait_for_counts_the_wait_names_what_died_and_the_last_error():
    clock = Clock()
    assert polling.wait_for("x", lambda: clock.now >= 3, 10, clock=clock, sleep=clock.sleep) == 3.0
    clock = Clock()
    with pytest.raises(LabError, match="QEMU exited while waiting for the guest"):
        polling.wait_for("the guest", lambda: False, 10, gone=lambda: clock.now >= 2 and "QEMU exited",
                         clock=clock, sleep=clock.sleep)
    assert clock.now == 2.0

    def refused():
        raise ConnectionRefusedError("refused")
    clock = Clock()
    with pytest.raises(LabError, match=r"gave up waiting 4 s for the API \(last: refused\)"):
        polling.wait_for("the API", refused, 4, not_yet=(OSError,), clock=clock, sleep=clock.sleep)
