"""When the machine's wall clock was set (stepped) during a run: the realtime clock every process
stamps with (Python's time.time(), bash's $EPOCHREALTIME, Java's currentTimeMillis) against the
kernel's uptime (/proc/uptime: CLOCK_BOOTTIME, which no one sets), read by the machine signal's
sampler between two realtime stamps.

A virtual machine that is paused and resumed may have its wall clock set forward when it resumes;
a client that stamps with a monotonic clock anchored at its start (Node's performance.timeOrigin
+ performance.now()) then disagrees with the others by the step, and a wait that spans the step
is measured longer than it was. A run with a step says so; its times across the step are not
comparable (a CI make test, 2026-12-03: the wall clock went 26.5 s between two samples while the
kernel accounted 3.7 CPU-seconds on two CPUs, and three labs' figures across it were wrong)."""
import dataclasses
from collections.abc import Sequence

UPTIME_RESOLUTION_S = 0.01     # /proc/uptime prints hundredths, truncated
LEAST_STEP_S = 0.02            # smaller offsets are not told apart from the reads' own spread


@dataclasses.dataclass(frozen=True)
class ClockReading:
    before_t: float            # realtime just before /proc/uptime was read
    uptime_s: float
    after_t: float             # realtime just after

    def offset_range(self) -> tuple[float, float]:
        """(least, most) realtime minus boot time at the read: the read fell between the two
        stamps, and the true uptime lies within one hundredth above the printed one."""
        return self.before_t - self.uptime_s - UPTIME_RESOLUTION_S, self.after_t - self.uptime_s


@dataclasses.dataclass(frozen=True)
class ClockStep:
    t: float                   # the realtime stamp of the first reading after the step
    step_s: float              # how far the wall clock moved against uptime (at least; + is forward)


def parse_reading(line: str) -> ClockReading | None:
    """'clock <before> <uptime> <after>' -> ClockReading, or None for another line."""
    fields = line.split()
    if len(fields) != 4 or fields[0] != "clock":
        return None
    try:
        return ClockReading(float(fields[1]), float(fields[2]), float(fields[3]))
    except ValueError:
        return None


def steps(readings: Sequence[ClockReading]) -> list[ClockStep]:
    """[ClockStep, ...]: each pair of consecutive readings whose offset ranges lie more than
    LEAST_STEP_S apart, by the least the step can have been."""
    found = []
    for a, b in zip(readings, readings[1:]):
        (a_low, a_high), (b_low, b_high) = a.offset_range(), b.offset_range()
        least = b_low - a_high if b_low > a_high else (b_high - a_low if b_high < a_low else 0.0)
        if abs(least) > LEAST_STEP_S:
            found.append(ClockStep(b.before_t, round(least, 3)))
    return found
