"""A connection still waiting when the run ended: its retransmissions, as ss saw them, against the
model's ladder (signals/retransmissions/ladder.py)."""
from harness.measure.ss_log import SocketSample
from harness.signals.retransmissions import ladder
from tests.simulator.kernel import Blackholed

T_FAULT = 1000.0


def samples_of(retransmitted_at, every=0.5, until=60.0):
    """ss read every `every` s: after each retransmission (s after the fault) the timer shows the
    count and the time left to the next one."""
    found, t = [], T_FAULT
    while t < T_FAULT + until:
        done = [k for k, at in enumerate(retransmitted_at, start=1) if T_FAULT + at <= t]
        if done:
            count, nxt = done[-1], (retransmitted_at + [None])[done[-1]]
            left = f"{max(0.0, T_FAULT + nxt - t):.3f}sec" if nxt else "9sec"
            found.append(SocketSample(t, "ESTAB", 40000, rto_ms=200.0 * 2 ** count, backoff=count,
                                      timer=f"on,{left},{count}", t_read=t + 0.002))
        t += every
    return found


def test_retransmissions_where_the_rules_put_them_are_in_the_model():
    # the simulator's RTO firings of a request sent 0.05 s after the fault (HZ 250, a 204 ms base)
    events = Blackholed(250, 51, 15).run(0)
    rtos = [j / 250 + 0.05 for j, what in events if what.startswith("RTO")]
    found = ladder.part(samples_of(rtos), T_FAULT, 0.1, 0.204, 250)
    assert found["in_model"] and found["seen"] >= 7, found
    assert [r["retransmission"] for r in found["rungs"]][:3] == [2, 3, 4]


def test_a_retransmission_a_second_late_is_outside_the_model():
    events = Blackholed(250, 51, 15).run(0)
    rtos = [j / 250 + 0.05 for j, what in events if what.startswith("RTO")]
    rtos[5] += 1.0                                   # the 6th a second late, and the ladder shifted after it
    rtos[6:] = [t + 1.0 for t in rtos[6:]]
    found = ladder.part(samples_of(rtos), T_FAULT, 0.1, 0.204, 250)
    assert not found["in_model"]
    assert [r["retransmission"] for r in found["rungs"] if not r["in_model"]][0] == 6


def test_no_retransmission_seen_is_no_ladder():
    assert ladder.part([], T_FAULT, 0.1, 0.204, 250) is None
