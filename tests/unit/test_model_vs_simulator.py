"""The lab's kernel model (harness/measure/kernel_model.py) against the independent simulator of the
same rules (tests/simulator), over generated settings: the model's expected end is the simulator's
for a send at a jiffy, to the tick, and every phase of the timer wheel ends inside the model's
window. Disagreements, where there are any, are written in docs/facts/kernel.md."""
import itertools
import random

import pytest

from harness.measure import kernel_model
from tests.simulator.kernel import Blackholed, Idle
from tests.simulator.planes import Checks, haproxy_checks, keepalived_checks

HZS = (100, 250, 300, 1000)


def blackholed_settings(rng, count):
    for _ in range(count):
        hz = rng.choice(HZS)
        rto0 = -(-200 * hz // 1000) + rng.randint(0, 5 * hz // 100)          # 200 ms + up to 50 ms of srtt
        rto_max_ms = rng.choice((120_000, 120_000, rng.randint(1, 120) * 1000))   # 6.15's tcp_rto_max_ms
        user_timeout_ms = rng.choice((0, 0, rng.randint(1, 600) * 100))
        yield Blackholed(hz, rto0, rng.randint(1, 20), user_timeout_ms, rto_max_ms)


def model_of(case):
    rto0_s = case.rto0 / case.hz
    return kernel_model.for_knobs(case.retries2, case.user_timeout_ms, hz=case.hz, rto0_s=rto0_s,
                                  rto_max_s=case.rto_max_ms / 1000)


def test_the_model_ends_where_the_simulator_does_over_ten_thousand_settings():
    rng, agreed = random.Random(55), 0
    for case in blackholed_settings(rng, 10_000):
        model, tick = model_of(case), 1 / case.hz
        assert abs(model.detect_s - case.ends_s(0)) <= tick + 1e-9, (case, model.detect_s, case.ends_s(0))
        for phase in (rng.randrange(8 ** 4), rng.randrange(8 ** 4)):
            ended = case.ends_s(phase)
            assert model.earliest_s - 1e-9 <= ended <= model.latest_s + 1e-9, (case, phase, ended, model)
        agreed += 1
    assert agreed == 10_000


@pytest.mark.parametrize("hz", HZS)
def test_an_idle_connection_ends_where_the_simulator_says(hz):
    for idle, interval, probes, user_timeout_ms in itertools.product((1, 5, 30, 7200), (1, 3, 75), (1, 3, 9),
                                                                   (0, 4000, 20_000)):
        case = Idle(hz, idle, interval, probes, user_timeout_ms)
        model = kernel_model.keepalive(idle, interval, probes, user_timeout_ms / 1000, hz=hz)
        assert abs(model.detect_s - case.ends_s(0)) <= 1 / hz + 1e-9, (case, model.detect_s, case.ends_s(0))
        soonest, latest = case.span_s()
        assert model.earliest_s - 1e-9 <= soonest and latest <= model.latest_s + 1e-9, (case, (soonest, latest), model)


def test_keepalived_and_haproxy_notice_a_silent_death_inside_their_models_windows():
    from harness.control.haproxy_settings import HaproxySettings, markdown
    from harness.control.keepalived_settings import KeepalivedSettings, TIMERS_LATE_S, lb_noticed
    rng = random.Random(56)
    for _ in range(2000):
        k = KeepalivedSettings(delay_loop=rng.choice((1, 2, 5, 6, 60)), connect_timeout=rng.choice((1, 2, 3, 5)),
                               retry=rng.randint(0, 3), delay_before_retry=rng.choice((0, 1, 2, 7)),
                               check=rng.choice(("tcp", "mysql")))
        span, window = keepalived_checks(k).span_s(), lb_noticed(k)
        assert window.earliest_s - 1e-9 <= span[0] and span[1] <= window.latest_s - TIMERS_LATE_S + 1e-9, (k, span, window)
        h = HaproxySettings(inter=rng.choice((0.5, 1, 2, 3)), fall=rng.randint(1, 5), fastinter=rng.choice((0, 0.5, 1)),
                            timeout_check=rng.choice((0, 1)), timeout_connect=rng.choice((0.5, 1, 5)))
        span, window = haproxy_checks(h).span_s(), markdown(h)
        assert window.earliest_s - 1e-9 <= span[0] and span[1] <= window.latest_s + 1e-9, (h, span, window)
    assert Checks(1.0, (2.0,)).span_s() == pytest.approx((2.0, 3.0), abs=0.02)
