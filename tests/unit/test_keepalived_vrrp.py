"""VRRP's state between two directors, and the keepalived plane's caught_up over it: settled
when the VIP is on the director VRRP elects and no keepalived is yet to start, and only when
seen so at two asks in a row."""
import dataclasses

import pytest

from harness.control import keepalived_vrrp
from harness.control.keepalived import Keepalived
from harness.control.keepalived_vrrp import DirectorVrrp, VrrpState
from harness.topology import VIP_HOST


@dataclasses.dataclass
class Answer:
    returncode: int
    stdout: str


def state(*directors: tuple[bool, bool, bool]) -> VrrpState:
    return VrrpState(tuple(DirectorVrrp(name, *flags) for name, flags in zip(("director", "director-backup"), directors)))


UP_RUNS_HOLDS, UP_RUNS, UP_ONLY, DOWN = (True, True, True), (True, True, False), (True, False, False), (False, False, False)


@pytest.mark.parametrize("master, backup, preempt, settled", [
    (UP_RUNS_HOLDS, UP_RUNS, True, True),         # before the fault, and after the failback
    (DOWN, UP_RUNS_HOLDS, True, True),            # the master dead, the backup took the VIP
    (DOWN, UP_RUNS, True, False),                 # the master dead and the backup yet to take it
    (UP_ONLY, UP_RUNS_HOLDS, True, False),        # the master's container back, its keepalived not yet
    (UP_RUNS, UP_RUNS_HOLDS, True, False),        # its keepalived runs and has not preempted yet
    (UP_RUNS, UP_RUNS_HOLDS, False, True),        # ... which with nopreempt it never will
    (UP_RUNS_HOLDS, UP_RUNS_HOLDS, True, False),  # both hold it (a split brain)
    (DOWN, DOWN, True, True),                     # nothing left to act
])
def test_vrrp_is_settled_when_the_elected_director_alone_holds_the_vip(master, backup, preempt, settled):
    assert state(master, backup).settled(preempt) is settled


def test_each_answer_says_what_its_director_is():
    answers = [Answer(0, f"{keepalived_vrrp.HOLDS}\n{keepalived_vrrp.RUNS}\n"), Answer(0, f"{keepalived_vrrp.RUNS}\n"),
               Answer(0, ""), Answer(1, f"{keepalived_vrrp.RUNS}\n")]
    found = keepalived_vrrp.parse(["a", "b", "c", "d"], answers)
    assert [(d.up, d.keepalived, d.holds_vip) for d in found.directors] == [
        (True, True, True), (True, True, False), (True, False, False), (False, False, False)]
    assert keepalived_vrrp.STATE_COMMAND[-1] == str(VIP_HOST)


class DirectorsLab:
    """Answers STATE_COMMAND from a script of states, one per ask of both directors."""
    def __init__(self, states: list[dict[str, str]]) -> None:
        self.states, self.asked = states, 0

    def exec(self, service, command, check=True, timeout=60, stdin=None):
        assert tuple(command) == keepalived_vrrp.STATE_COMMAND and not check
        said = self.states[min(self.asked // 2, len(self.states) - 1)][service]
        self.asked += 1
        return Answer(1, "") if said == "down" else Answer(0, said)


MASTER = {"director": f"{keepalived_vrrp.HOLDS} {keepalived_vrrp.RUNS}", "director-backup": keepalived_vrrp.RUNS}
TAKEN_OVER = {"director": "down", "director-backup": f"{keepalived_vrrp.HOLDS} {keepalived_vrrp.RUNS}"}
STARTING = {"director": "", "director-backup": f"{keepalived_vrrp.HOLDS} {keepalived_vrrp.RUNS}"}


def test_the_plane_has_caught_up_once_the_failback_is_seen_at_two_asks_in_a_row():
    plane = Keepalived([("vrrp", "sync")])
    lab = DirectorsLab([MASTER, TAKEN_OVER, STARTING, MASTER, MASTER])
    before = plane.progress(lab)
    answers = [plane.caught_up(lab, before) for _ in range(4)]
    assert answers == [False, False, False, True]


def test_a_settled_state_from_another_runs_asks_does_not_count():
    plane = Keepalived([("vrrp", "plain")])
    plane.caught_up(DirectorsLab([MASTER]), object())
    assert not plane.caught_up(DirectorsLab([MASTER]), object())


def test_without_vrrp_there_is_nothing_to_wait_for():
    plane = Keepalived()
    assert plane.progress(DirectorsLab([])) is None
    assert plane.caught_up(DirectorsLab([]), None)


def test_an_answer_that_did_not_come_in_time_is_not_settled():
    taken_over = keepalived_vrrp.parse(["director", "director-backup"], [Answer(1, ""), Answer(0, f"{keepalived_vrrp.HOLDS} {keepalived_vrrp.RUNS}")])
    late = keepalived_vrrp.parse(["director", "director-backup"], [None, Answer(0, f"{keepalived_vrrp.HOLDS} {keepalived_vrrp.RUNS}")])
    assert taken_over.settled(True) and not late.settled(True)
