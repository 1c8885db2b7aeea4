"""A request sent into a blackhole, event by event on a jiffy clock (docs/facts/kernel.md):
  - the segment goes out at the start; a Tail Loss Probe fires one RTO later (the RTO timer is then
    armed again for one RTO); that firing retransmits and starts the budget's clock (retrans_stamp);
  - every later RTO firing first checks the time since the clock started against the budget
    (tcp_retries2's ((2 << N) - 1) x 200 ms up to N = 9, then + (N - 9) x RTO max; or
    TCP_USER_TIMEOUT's U), erring at the first firing past it; else it retransmits and doubles the
    RTO, up to the RTO max;
  - with TCP_USER_TIMEOUT the timer is armed for no more than what is left of U;
  - every timer lands on the wheel (wheel.py).
Times in jiffies; `phase` is the jiffy the request went out at (the wheel's slots are absolute, so
the same settings end at different times for different phases)."""
import dataclasses

from .wheel import fires_at

RTO_MIN_MS, RTO_MAX_MS = 200, 120_000


def budget_ms(retries2, rto_max_ms=RTO_MAX_MS):
    """tcp_model_timeout with the 200 ms base (docs/facts/kernel.md)."""
    doublings = 0
    while (RTO_MIN_MS << (doublings + 1)) <= rto_max_ms:
        doublings += 1
    if retries2 <= doublings:
        return ((2 << retries2) - 1) * RTO_MIN_MS
    return ((2 << doublings) - 1) * RTO_MIN_MS + (retries2 - doublings) * rto_max_ms


@dataclasses.dataclass(frozen=True)
class Blackholed:
    hz: int
    rto0: int                 # the first RTO, jiffies
    retries2: int = 15
    user_timeout_ms: int = 0
    rto_max_ms: int = RTO_MAX_MS

    def jiffies(self, ms):
        return -(-ms * self.hz // 1000)

    def run(self, phase=0):
        """[(jiffy, what)] from the send to ETIMEDOUT."""
        rto_max = self.jiffies(self.rto_max_ms)
        limit = self.jiffies(self.user_timeout_ms) if self.user_timeout_ms else self.jiffies(
            budget_ms(self.retries2, self.rto_max_ms))
        events = [(phase, "send")]
        now = fires_at(phase, self.rto0)
        events.append((now, "TLP"))
        now = fires_at(now, self.rto0)
        events.append((now, "RTO 1"))
        stamp, rto, n = now, min(2 * self.rto0, rto_max), 1
        while True:
            delay = min(rto, limit - (now - stamp)) if self.user_timeout_ms else rto
            now = fires_at(now, delay)
            if now - stamp >= limit:
                events.append((now, "ETIMEDOUT"))
                return events
            n += 1
            events.append((now, f"RTO {n}"))
            rto = min(2 * rto, rto_max)

    def ends_s(self, phase=0):
        """Seconds from the send to ETIMEDOUT."""
        events = self.run(phase)
        return (events[-1][0] - phase) / self.hz

    def span_s(self):
        """(soonest, latest) ETIMEDOUT over every phase of the wheel's largest slot."""
        spans = self.spans_s()
        return spans[0][0], spans[-1][1]

    def spans_s(self):
        """[(soonest, latest)] ETIMEDOUT over every phase of the wheel's largest slot, one span per
        firing that can end it (a borderline budget ends at one firing or the next, never between)."""
        by_firing = {}
        for phase in range(0, 8 ** 4, 7):
            events = self.run(phase)
            by_firing.setdefault(len(events), []).append((events[-1][0] - phase) / self.hz)
        return [(min(ends), max(ends)) for _, ends in sorted(by_firing.items())]


@dataclasses.dataclass(frozen=True)
class Idle:
    """An idle connection whose peer vanished, keepalive on: the timer fires `idle` after the last
    packet received, then every `interval`, sending a probe each time; it errs at the firing that
    finds `probes` unanswered (or, with TCP_USER_TIMEOUT U, the first firing at or past U since the
    last packet received, once a probe is out)."""
    hz: int
    idle_s: int
    interval_s: int
    probes: int
    user_timeout_ms: int = 0

    def ends_s(self, phase=0):
        now = fires_at(phase, self.idle_s * self.hz)
        sent = 0
        while True:
            elapsed = now - phase
            if self.user_timeout_ms:
                if elapsed * 1000 >= self.user_timeout_ms * self.hz and sent > 0:
                    return elapsed / self.hz
            elif sent >= self.probes:
                return elapsed / self.hz
            sent += 1
            now = fires_at(now, self.interval_s * self.hz)

    def span_s(self):
        ends = [self.ends_s(phase) for phase in range(0, 8 ** 4, 7)]
        return min(ends), max(ends)
