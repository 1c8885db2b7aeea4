"""When the machine woke its processes late during a run: the signal's sampler waits INTERVAL_S
between samples (bash's `read -t`), so a sample that came well after that past the previous one's
end says a timed wakeup on the machine came that late. Over 7,332 waits of 129 runs on the
development machine its wake came a median 0.001 s past the wait, 99 % within 0.042 s
(docs/facts/kernel.md, "What the tests allow"); LEAST_S or more is a late wakeup. A client's timer
due meanwhile fires as late: a CI make test (2026-12-05) had two pgx processes report their 2 s
timers 0.172 s late within 5 ms of the sampler's wake, itself 0.087 s past its wait (the machine
had stopped running them all)."""
import dataclasses
from collections.abc import Iterable, Sequence

from .clock_steps import UPTIME_RESOLUTION_S
from .machine_cpu import Sample

LEAST_S = 0.05


@dataclasses.dataclass(frozen=True)
class Stall:
    resumed_t: float           # the sampler's late wake: the machine ran it again then
    late_s: float              # how far past its wait it woke


def stalls(samples: Sequence[Sample], interval_s: float) -> list[Stall]:
    """[Stall, ...] in time order, from machine_cpu's samples. Only samples that read the kernel's
    uptime are judged (samplers before 2026-12-04 did not): the wait is measured on the wall clock
    from the end of a sample's own reads and on the uptime, the shorter counts, so a wall clock set
    meanwhile (clock_steps.py) is not taken for a late wakeup."""
    found = []
    for before, after in zip(samples, samples[1:]):
        if before.clock is None or after.clock is None:
            continue
        by_wall = after.t - before.clock.after_t
        by_uptime = after.clock.uptime_s - before.clock.uptime_s + UPTIME_RESOLUTION_S
        late = min(by_wall, by_uptime) - interval_s
        if late >= LEAST_S:
            found.append(Stall(after.t, round(late, 3)))
    return found


def resumed_between(found: Iterable[Stall], start: float, end: float) -> Stall | None:
    """The latest stall whose wake fell in [start, end] (a timer due at start, reported at end, was
    held by it), or None."""
    inside = [stall for stall in found if start <= stall.resumed_t <= end]
    return max(inside, key=lambda stall: stall.resumed_t, default=None)
