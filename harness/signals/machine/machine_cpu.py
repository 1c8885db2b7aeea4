"""How busy the machine the clients ran on was, from the first line of /proc/stat sampled in blocks
headed '@ <unix time>' (the signal: __init__.py): the share of its CPU time spent on anything but
idle and iowait between two moments. /proc/stat is the kernel's, not a container's: on the host
it counts the host's CPUs, in a guest the guest's.

A client's own timer (a read timeout, the wakeup after its kernel gave up) fires on time only if a
CPU is free to run it: on a machine with no idle CPU it waits in the run queue, and its error
comes late by as much, whatever the model says of the kernel."""
import dataclasses
from collections.abc import Sequence

from .clock_steps import ClockReading, parse_reading

SATURATED = 0.95              # busier than this, a late application timer is the machine's, not the model's


@dataclasses.dataclass(frozen=True)
class Sample:
    t: float
    busy: int                 # ticks (USER_HZ) spent on anything but idle and iowait since boot
    total: int
    clock: ClockReading | None = None     # the block's uptime reading (samplers before 2026-12-04 had none)


def parse_samples(text: str) -> list[Sample]:
    """[Sample, ...] in time order; a block without a readable cpu line is skipped."""
    samples, t = [], None
    for line in text.splitlines():
        if line.startswith("@ "):
            t = float(line[2:])
        elif line.startswith("cpu ") and t is not None:
            ticks = [int(v) for v in line.split()[1:]]
            idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
            samples.append(Sample(t, sum(ticks[:8]) - idle, sum(ticks[:8])))
            t = None
        elif line.startswith("clock ") and samples and samples[-1].clock is None:
            samples[-1] = dataclasses.replace(samples[-1], clock=parse_reading(line))
    return samples


def busy_share(samples: Sequence[Sample], start: float, end: float) -> float | None:
    """The share of CPU time busy from the last sample at or before start to the first at or
    after end; None when the samples do not bracket [start, end]."""
    before = [s for s in samples if s.t <= start]
    after = [s for s in samples if s.t >= end]
    if not before or not after:
        return None
    a, b = before[-1], after[0]
    if b.total <= a.total:
        return None
    return round((b.busy - a.busy) / (b.total - a.total), 3)
