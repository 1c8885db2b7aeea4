"""When does the kernel give up on a blackholed connection? (docs/facts/kernel.md)

With data outstanding and no ACK ever coming back:
  t=0            the segment is sent
  t=rto0         Tail Loss Probe (a re-send that does not start the clock)
  t=2*rto0       first RTO retransmission: the clock (retrans_stamp) starts here
  then RTO firings at doubling intervals, capped at rto_max; at each firing the kernel
  checks elapsed-since-the-clock-started >= the tcp_retries2 time budget, and if so
  the socket errors out (ETIMEDOUT) at that firing.
Every timer can fire late by up to one timer-wheel granule (1/8 of its delay at most),
so the model gives a window: the earliest and the latest firing the slack allows.
"""
import dataclasses
import functools
import math
from collections.abc import Callable, Iterator

Late = Callable[[float, float], float]     # (armed at s, delay s) -> how late the timer fires, s

RTO_MIN_S = 0.2
RTO_MAX_S = 120.0
HZ = 250        # Debian's CONFIG_HZ, and this workplace's


def budget_s(retries2: int, rto_base_s: float = RTO_MIN_S, rto_max_s: float = RTO_MAX_S) -> float:
    """tcp_model_timeout(): the time budget tcp_retries2 stands for."""
    thresh = int(math.log2(rto_max_s / rto_base_s))
    if retries2 <= thresh:
        return ((2 << retries2) - 1) * rto_base_s
    return ((2 << thresh) - 1) * rto_base_s + (retries2 - thresh) * rto_max_s


def initial_rto_s(rtt_s: float = 0.0005, hz: int = HZ) -> float:
    """The first RTO on a quiet path: rto_min + srtt, rounded up to whole jiffies.
    The default RTT is a veth path through the director (~0.5 ms)."""
    jiffy = 1.0 / hz
    return math.ceil((RTO_MIN_S + rtt_s) / jiffy - 1e-9) * jiffy


def timer_slack_s(delay_s: float, hz: int = HZ) -> float:
    """The largest lateness of a timer armed `delay_s` ahead (one granule of its wheel level)."""
    jiffies = delay_s * hz
    level = 0
    while level < 8 and jiffies >= 63 << (3 * level):
        level += 1
    return (8 ** level) / hz


def wheel_late_s(armed_s: float, delay_s: float, hz: int = HZ) -> float:
    """How late the timer wheel fires a timer armed at armed_s (s after a send at jiffy 0) for
    delay_s: it lands in its level's slot and fires at the first slot boundary after its expiry,
    never on it (docs/facts/kernel.md: one jiffy to a whole slot late), so its lateness depends on
    where the slots fall."""
    armed, delay = round(armed_s * hz), max(1, math.ceil(delay_s * hz - 1e-9))
    slot = round(timer_slack_s(delay / hz, hz) * hz)
    expiry = armed + delay
    return ((expiry // slot + 1) * slot - expiry) / hz + (delay / hz - delay_s)


@dataclasses.dataclass(frozen=True)
class Firing:
    at_s: float            # since the first unacknowledged send
    what: str              # "send", "TLP", "RTO #n"
    elapsed_s: float       # since the first retransmission (the budget's clock)
    rto_s: float           # the timer armed next


@dataclasses.dataclass(frozen=True)
class Prediction:
    detect_s: float        # expected time of ETIMEDOUT after the first unacknowledged send
    earliest_s: float
    latest_s: float
    budget_s: float
    limit: str             # "tcp_retries2" or "TCP_USER_TIMEOUT"
    schedule: tuple["Firing", ...]   # up to the error (the expected case)


def _firings(rto0: float, rto_max: float, late: Late) -> Iterator[tuple[float, float, float]]:
    """(time, elapsed) of the RTO firings, each timer late by late(armed at, delay)."""
    t = rto0 + late(0.0, rto0)             # TLP
    t += rto0 + late(t, rto0)              # first RTO: retransmission, clock starts
    stamp, rto = t, min(2 * rto0, rto_max)
    while True:
        t += rto + late(t, rto)
        yield t, t - stamp, rto
        rto = min(2 * rto, rto_max)


def _first_past(budget: float, rto0: float, rto_max: float, slack: Late) -> tuple[int, float]:
    for index, (t, elapsed, _) in enumerate(_firings(rto0, rto_max, slack)):
        if elapsed >= budget - 1e-9:
            return index, t
    raise AssertionError("unreachable: the firings grow without bound")


def _time_of(index: int, rto0: float, rto_max: float, slack: Late) -> float:
    for i, (t, _, _) in enumerate(_firings(rto0, rto_max, slack)):
        if i == index:
            return t
    raise AssertionError("unreachable: the firings grow without bound")


def blackhole(retries2: int, rtt_s: float = 0.0005, hz: int = HZ, rto_max_s: float = RTO_MAX_S,
              rto0_s: float | None = None) -> Prediction:
    """ETIMEDOUT time of a connection with data outstanding into a blackhole.
    rto0_s: the socket's base RTO when known (measured); else derived from rtt_s."""
    rto0 = rto0_s or initial_rto_s(rtt_s, hz)
    budget = budget_s(retries2, rto_max_s=rto_max_s)
    none = lambda t, d: 0.0                                # noqa: E731
    most = lambda t, d: timer_slack_s(d, hz)               # noqa: E731
    wheel = lambda t, d: wheel_late_s(t, d, hz)            # noqa: E731
    index_late, _ = _first_past(budget, rto0, rto_max_s, most)     # slack can cross sooner
    index_exact, _ = _first_past(budget, rto0, rto_max_s, none)
    _, expected = _first_past(budget, rto0, rto_max_s, wheel)      # a send at a jiffy, the slots as they fall
    earliest = (_time_of(index_late, rto0, rto_max_s, none) if index_late < index_exact
                else _soonest_over_phases(index_exact, rto0, rto_max_s, hz))
    latest = _time_of(index_exact, rto0, rto_max_s, most)
    return Prediction(expected, min(earliest, expected), max(latest, expected), budget,
                      "tcp_retries2", _schedule(budget, rto0, rto_max_s, wheel))


PHASES_TRIED = 64


@functools.lru_cache(maxsize=256)
def _soonest_over_phases(index: int, rto0: float, rto_max: float, hz: int) -> float:
    """The soonest the index-th firing can come, the send at any jiffy: the wheel is never early,
    and never on time (docs/facts/kernel.md). The end repeats with the send's jiffy modulo the
    largest slot a timer lands on, and comes no sooner for a later send, so PHASES_TRIED sends
    spread over that slot, less the jiffies between two of them, bound every one from below."""
    period = round(timer_slack_s(rto_max, hz) * hz)
    step = max(1, period // PHASES_TRIED)
    def sent_at(phase_s: float) -> Late:
        return lambda t, d: wheel_late_s(t + phase_s, d, hz)
    sampled = min(_time_of(index, rto0, rto_max, sent_at(phase / hz)) for phase in range(0, period, step))
    return sampled - (step - 1) / hz


def _schedule(budget: float, rto0: float, rto_max: float, late: Late) -> tuple[Firing, ...]:
    tlp = rto0 + late(0.0, rto0)
    stamp = tlp + rto0 + late(tlp, rto0)
    firings = [Firing(0.0, "send", 0.0, rto0), Firing(tlp, "TLP", 0.0, rto0),
               Firing(stamp, "RTO #1 (clock starts)", 0.0, min(2 * rto0, rto_max))]
    for n, (t, elapsed, rto) in enumerate(_firings(rto0, rto_max, late), start=2):
        last = elapsed >= budget - 1e-9
        firings.append(Firing(t, "ETIMEDOUT" if last else f"RTO #{n}", elapsed, min(2 * rto, rto_max)))
        if last:
            return tuple(firings)
    raise AssertionError("unreachable: the firings grow without bound")


def first_retransmission_after(t_s: float, rto0_s: float, rto_max_s: float = RTO_MAX_S, hz: int = HZ,
                               slack_share: float = 0.5) -> float:
    """When the first (re)transmission after t_s goes out, on a connection whose first
    unacknowledged send was at 0 (the TLP, the RTO retransmissions): what meets a load balancer
    that started resetting the flow at t_s. slack_share: how much of each timer's lateness to add
    (0: none, 1: the most a timer wheel allows)."""
    slack = lambda t, d: slack_share * timer_slack_s(d, hz)       # noqa: E731
    t = rto0_s + slack(0.0, rto0_s)                                # the TLP
    if t > t_s:
        return t
    for fired, _, _ in _firings_from_clock(rto0_s, rto_max_s, slack):
        if fired > t_s:
            return fired
    raise AssertionError("unreachable: the firings grow without bound")


def _firings_from_clock(rto0: float, rto_max: float, late: Late) -> Iterator[tuple[float, float, float]]:
    """The first RTO retransmission, then _firings()."""
    tlp = rto0 + late(0.0, rto0)
    yield tlp + rto0 + late(tlp, rto0), 0.0, rto0
    yield from _firings(rto0, rto_max, late)


def user_timeout(user_timeout_s: float, rtt_s: float = 0.0005, hz: int = HZ, rto0_s: float | None = None,
                 rto_max_s: float = RTO_MAX_S) -> Prediction:
    """ETIMEDOUT with TCP_USER_TIMEOUT set: it replaces the tcp_retries2 budget (longer or
    shorter). The clock still starts at the first RTO retransmission, and the RTO timer is
    clamped to the time left (tcp_clamp_rto_to_user_timeout), so the error comes close to
    first-retransmission + U."""
    rto0 = rto0_s or initial_rto_s(rtt_s, hz)
    tlp = rto0 + wheel_late_s(0.0, rto0, hz)
    stamp = tlp + rto0 + wheel_late_s(tlp, rto0, hz)
    firings = [Firing(0.0, "send", 0.0, rto0), Firing(tlp, "TLP", 0.0, rto0),
               Firing(stamp, "RTO #1 (clock starts)", 0.0, min(2 * rto0, rto_max_s))]
    t, rto, n = stamp, min(2 * rto0, rto_max_s), 2
    expected = None
    while t - stamp + rto < user_timeout_s:
        t += rto + wheel_late_s(t, rto, hz)
        if t - stamp >= user_timeout_s - 1e-9:
            expected = t            # a timer armed short of U fired late, past it: it ends the wait
            break
        firings.append(Firing(t, f"RTO #{n}", t - stamp, min(2 * rto, rto_max_s)))
        rto, n = min(2 * rto, rto_max_s), n + 1
    # The last timer is armed for what is left of U (in whole jiffies), where the wheel puts it; at
    # worst it fires one granule late, its clock started two RTOs late.
    if expected is None:
        left = max(user_timeout_s - (t - stamp), 1.0 / hz)
        expected = t + left + wheel_late_s(t, left, hz)
    on_time = 2 * rto0 + user_timeout_s + 1.0 / hz
    slack = timer_slack_s(_left_on_time(user_timeout_s, rto0, rto_max_s), hz)
    firings.append(Firing(expected, "ETIMEDOUT (user timeout)", user_timeout_s, 0.0))
    return Prediction(expected, rto0 + user_timeout_s, max(on_time + slack + 2 * rto0, expected), user_timeout_s,
                      "TCP_USER_TIMEOUT", tuple(firings))


def _left_on_time(user_timeout_s: float, rto0: float, rto_max_s: float) -> float:
    """The most that can be left of U when the last timer is armed (so the coarsest wheel level it
    may land on): every timer before it on time; or, where late firings push the last one that fit
    past U, what was left before that one."""
    elapsed, rto, last = 0.0, min(2 * rto0, rto_max_s), 0.0
    while elapsed + rto < user_timeout_s:
        elapsed, last = elapsed + rto, rto
        rto = min(2 * rto, rto_max_s)
    return user_timeout_s - elapsed + last


def keepalive(idle_s: float, interval_s: float, probes: int, user_timeout_s: float = 0.0, hz: int = HZ) -> Prediction:
    """An idle connection whose peer vanished: seconds after its last data until the
    keepalive timer kills it (tcp_keepalive_timer). Without TCP_USER_TIMEOUT that is after
    `probes` unanswered probes; with it, at the first tick at or past U (the time since the last
    data as the tick finds it, its timers' lateness included) once a probe is out."""
    def ticks(late: Late) -> Iterator[float]:
        fired = [idle_s + late(0.0, idle_s)]
        while True:
            yield fired[-1]
            fired.append(fired[-1] + interval_s + late(fired[-1], interval_s))

    def ending(late: Late) -> tuple[int, float]:
        for k, t in enumerate(ticks(late)):
            if (k >= 1 and t >= user_timeout_s - 1e-9) if user_timeout_s else k == probes:
                return k, t
        raise AssertionError("unreachable: the firings grow without bound")

    none = lambda t, d: 0.0                                 # noqa: E731
    most = lambda t, d: timer_slack_s(d, hz)                # noqa: E731
    index, expected = ending(lambda t, d: wheel_late_s(t, d, hz))
    soonest_index, _ = ending(most)                          # late ticks can reach U a tick sooner
    earliest = next(t for k, t in enumerate(ticks(none)) if k == soonest_index)
    latest_index, _ = ending(none)
    latest = next(t for k, t in enumerate(ticks(most)) if k == latest_index) + 1.0 / hz
    wheel = ticks(lambda t, d: wheel_late_s(t, d, hz))
    schedule = tuple(Firing(next(wheel), "keepalive probe" if k < index else "ETIMEDOUT (keepalive)",
                            idle_s + k * interval_s, interval_s) for k in range(index + 1))
    limit = "keepalive + TCP_USER_TIMEOUT" if user_timeout_s else "keepalive"
    return Prediction(expected, min(earliest, expected), max(latest, expected), idle_s + index * interval_s,
                      limit, schedule)


def for_knobs(retries2: int, user_timeout_ms: float = 0, rtt_s: float = 0.0005, hz: int = HZ,
              rto0_s: float | None = None, rto_max_s: float = RTO_MAX_S) -> Prediction:
    """A connection with data outstanding into a blackhole, under a cell's knobs. rto_max_s:
    net.ipv4.tcp_rto_max_ms (6.15+): it caps the backoff and is the budget's unit past the
    doubling part (tcp_model_timeout uses it in place of TCP_RTO_MAX)."""
    if user_timeout_ms:
        return user_timeout(user_timeout_ms / 1000, rtt_s, hz, rto0_s=rto0_s, rto_max_s=rto_max_s)
    return blackhole(retries2, rtt_s, hz, rto_max_s=rto_max_s, rto0_s=rto0_s)


def rto_firing_windows(count: int, rto0_s: float | None = None, hz: int = HZ, rto_max_s: float = RTO_MAX_S,
                       rtt_s: float = 0.0005) -> list[tuple[int, float, float]]:
    """[(n, earliest, latest)] s after the first unanswered send of RTO retransmissions #1..#count
    (#1 starts tcp_retries2's clock): every timer on time, and every one as late as the wheel lets it."""
    rto0 = rto0_s or initial_rto_s(rtt_s, hz)
    on_time = _firings_from_clock(rto0, rto_max_s, lambda t, d: 0.0)
    late = _firings_from_clock(rto0, rto_max_s, lambda t, d: timer_slack_s(d, hz))
    return [(n, early[0], slow[0]) for n, early, slow in zip(range(1, count + 1), on_time, late)]
