"""Where VRRP stands between two directors, read live (pure but for the command it gives): for
each director whether its container answers, whether its keepalived runs and whether it holds the
VIP. A run whose clients are all back watches on until VRRP has settled: the VIP on the director
VRRP elects (with preempt, the highest priority whose keepalived runs) and on no other, and no
director up whose keepalived is yet to start (director-start waits for the real servers first).
A restarted master takes the VIP back some seconds after its container is up: a run that ended
then would miss the failback it set out to measure."""
import dataclasses
from collections.abc import Sequence

from ..lab_commands import Ran
from ..topology import VIP_HOST

RUNS, HOLDS = "keepalived-runs", "holds-vip"
# in the director's own namespace: LAB_FRONT_PREFIX is its front network's (images/director/director-start)
STATE_COMMAND = ("sh", "-c", 'ip -4 -o addr show | grep -qF " inet ${LAB_FRONT_PREFIX}.$1/" && echo ' + HOLDS + '; '
                 'pgrep -x keepalived > /dev/null && echo ' + RUNS + '; true', "sh", str(VIP_HOST))


@dataclasses.dataclass(frozen=True)
class DirectorVrrp:
    director: str
    up: bool                 # its container answered
    keepalived: bool         # its keepalived runs
    holds_vip: bool


@dataclasses.dataclass(frozen=True)
class VrrpState:
    directors: tuple[DirectorVrrp, ...]     # highest priority first

    def settled(self, preempt: bool) -> bool:
        if any(d.up and not d.keepalived for d in self.directors):
            return False                     # a keepalived yet to start will act
        holders = [d for d in self.directors if d.holds_vip]
        running = [d for d in self.directors if d.keepalived]
        if not running:
            return not holders
        if len(holders) != 1 or not holders[0].keepalived:
            return False
        return not preempt or holders[0] == running[0]


def parse(directors: Sequence[str], answers: Sequence[Ran | None]) -> VrrpState:
    """The state from each director's answer to STATE_COMMAND (in the order of `directors`,
    highest priority first); a container that refused the command (stopped) is down; one whose
    answer did not come in time (None) counts as up with its keepalived yet to start: not settled."""
    found = []
    for director, ran in zip(directors, answers, strict=True):
        if ran is None:
            found.append(DirectorVrrp(director, True, False, False))
            continue
        said = ran.stdout.split() if ran.returncode == 0 else []
        found.append(DirectorVrrp(director, ran.returncode == 0, RUNS in said, HOLDS in said))
    return VrrpState(tuple(found))
