"""A connect whose SYNs nothing answers: when each SYN is sent again and when the connect gives up
(docs/facts/kernel.md, "SYN retransmissions"). Pure: seconds after the first SYN."""
from collections.abc import Callable, Iterator

from .kernel_model import HZ, RTO_MAX_S, budget_s, timer_slack_s


def syn_retransmit_times(linear_timeouts: int = 0, count: int = 8, initial_s: float = 1.0) -> list[float]:
    """When a client retransmits an unanswered SYN (seconds after the first SYN). Kernels with
    net.ipv4.tcp_syn_linear_timeouts (6.x; 4 by default where present) keep the first that many
    retransmissions 1 s apart, then back off doubling from 1 s: 1, 2, 3, 4, 5, 7, 11, 19, ...;
    without it: 1, 3, 7, 15, ..."""
    times: list[float] = []
    t, rto = 0.0, initial_s
    for n in range(count):
        t += rto
        times.append(t)
        if n >= linear_timeouts:
            rto *= 2
    return times


def _syn_firings(linear_timeouts: int, initial_s: float, late: Callable[[float], float],
                 rto_max_s: float = RTO_MAX_S) -> Iterator[float]:
    """Each firing of an unanswered connect's SYN timer, s after the first SYN: the retransmission
    schedule of syn_retransmit_times(), each timer up to late(its delay) after its due time."""
    t, rto, n = 0.0, initial_s, 0
    while True:
        t += rto + late(rto)
        yield t
        if n >= linear_timeouts:
            rto = min(rto * 2, rto_max_s)
        n += 1


def _syn_expiry(syn_retries: int, linear_timeouts: int, initial_s: float,
                late: Callable[[float], float]) -> tuple[int, float]:
    """(retransmissions, the firing that gives up): tcp_write_timeout() in SYN_SENT gives up at the
    first firing at least tcp_model_timeout(tcp_syn_retries) after the first SYN (the doubling
    ladder's time, 127 s at 6), whatever the linear timeouts made of the schedule."""
    budget = budget_s(syn_retries, initial_s)
    for count, t in enumerate(_syn_firings(linear_timeouts, initial_s, late)):
        if t >= budget - 1e-9:
            return count, t
    raise AssertionError("unreachable: the firings grow without bound")


def syn_retransmissions(syn_retries: int = 6, linear_timeouts: int = 0, initial_s: float = 1.0) -> int:
    """How many times an unanswered SYN is sent again before the connect gives up: tcp_syn_retries
    without linear timeouts; with 4, 10 at 6 but 5 at 2 (1, 2, 3, 4, 5 s: the 7 s firing gives up)."""
    return _syn_expiry(syn_retries, linear_timeouts, initial_s, lambda delay: 0.0)[0]


def syn_give_up_s(syn_retries: int = 6, linear_timeouts: int = 0, initial_s: float = 1.0) -> float:
    """When a connect whose SYNs nothing answers fails (ETIMEDOUT), seconds after its first SYN, every
    timer on time: 127 s at 6 without linear timeouts, 131 s at 6 with 4, 7 s at 2 either way."""
    return _syn_expiry(syn_retries, linear_timeouts, initial_s, lambda delay: 0.0)[1]


def syn_give_up_window_s(syn_retries: int = 6, linear_timeouts: int = 0, initial_s: float = 1.0,
                         hz: int = HZ) -> tuple[float, float]:
    """(earliest, latest) of syn_give_up_s: every timer on time, and every one a whole granule of its
    wheel level late (docs/facts/kernel.md, "SYN retransmissions": 134.7 s at 6 with 4 on 6.18)."""
    on_time = syn_give_up_s(syn_retries, linear_timeouts, initial_s)
    late = _syn_expiry(syn_retries, linear_timeouts, initial_s, lambda delay: timer_slack_s(delay, hz))[1]
    return min(on_time, late), max(on_time, late)
