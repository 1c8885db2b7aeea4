"""The AWS wrapper's host monitor (efm2) against its own loop, replayed check by check as its source
runs it (docs/facts/dns.md: checks every interval, or 0.1 s after a longer one; dead at the end of
the first failed check ending (count - 1) x interval after the first began; watches pooled, so a
statement may be handed over from the next second on)."""
import random

import pytest

from harness.measure import predict as model
from harness.measure.effects import BLACKHOLE, Effect
from harness.measure.host_monitor import HostMonitor
from harness.scenario.parser import read_cell


def replayed_verdict_s(interval_s, count, checks_s):
    """From the first failed check's start to the verdict, the checks lasting checks_s in turn."""
    start = 0.0
    for check_s in checks_s:
        end = start + check_s
        if end >= interval_s * (count - 1):
            return end
        start = end + max(interval_s - check_s, 0.1)
    raise AssertionError("more checks needed")


def test_the_verdict_comes_within_its_bounds_whatever_each_check_lasts():
    rng = random.Random(7)
    for _ in range(2000):
        interval_s, count = rng.choice((0.5, 1.0, 2.0, 5.0)), rng.randint(1, 6)
        shortest = rng.uniform(0.01, 6.0)
        longest = shortest + rng.uniform(0.0, 6.0)
        checks = [rng.uniform(shortest, longest) for _ in range(200)]
        low, high = HostMonitor(30.0, interval_s, count).verdict_s((shortest, longest))
        assert low - 1e-9 <= replayed_verdict_s(interval_s, count, checks) <= high + 1e-9


def test_its_is_valid_asks_half_the_interval_in_whole_seconds_at_least_one():
    assert HostMonitor(30.0, 5.0, 3).is_valid_s == (2.0, 4.0)
    assert HostMonitor(30.0, 1.0, 3).is_valid_s == (1.0, 2.0)


def test_at_its_defaults_a_silent_host_is_called_dead_ten_to_fifty_seconds_into_a_statement():
    monitor = HostMonitor.of(())
    assert (monitor.time_s, monitor.interval_s, monitor.count) == (30.0, 5.0, 3)
    assert monitor.abort_window_s((0.5, 0.5)) == pytest.approx((10.0, 31.1 + 10 + 5 + 4))


def test_a_monitor_switched_off_is_none():
    assert HostMonitor.of((("failureDetectionEnabled", False),)) is None
    assert HostMonitor.of((("failureDetectionTime", 2000), ("failureDetectionInterval", 1000),
                           ("failureDetectionCount", 2))) == HostMonitor(2.0, 1.0, 2)


def cell(**settings):
    return read_cell({"name": "c", "client": "aws-jdbc", "tcp_retries2": 15, "aws-jdbc": settings}, "test")


def window(c):
    return model.predict(c, Effect(BLACKHOLE), 0.1, 0.0)


def test_the_model_says_both_ends_the_monitor_if_its_checks_meet_the_silent_host_else_the_kernel():
    w = window(cell(failureDetectionTime=2000, failureDetectionInterval=1000, failureDetectionCount=3,
                    **{"monitoring-connectTimeout": 500}))
    kernel = window(cell(failureDetectionEnabled=False))
    assert w.earliest_s == pytest.approx(2.0)
    assert w.latest_s == kernel.latest_s > 900
    assert 2.0 < w.expected_s < 8.1
    assert "host monitor" in w.basis and "if they meet the silent host" in w.basis and kernel.basis in w.basis


def test_without_a_monitoring_connect_timeout_a_connect_waits_for_the_syn_retries():
    w = window(cell(failureDetectionTime=2000, failureDetectionInterval=1000))
    assert w.earliest_s == pytest.approx(2.0)             # an isValid check: 1 s each
    assert "SYN retries" in w.basis


def test_a_monitor_that_would_come_after_the_kernel_changes_nothing():
    w = model.predict(read_cell({"name": "c", "client": "aws-jdbc", "tcp_retries2": 3}, "test"), Effect(BLACKHOLE),
                      0.1, 0.0)
    assert "host monitor" not in w.basis


def test_explain_refuses_the_monitor_it_cannot_place_and_answers_once_it_is_off():
    from harness.answer import explain
    with pytest.raises(explain.ExplainError, match="does not answer for the wrapper's host monitor"):
        explain.parse_knobs(["CLIENT=aws-jdbc", "socketTimeout=3000"])
    text = explain.explain(explain.parse_knobs(["CLIENT=aws-jdbc", "socketTimeout=3000",
                                                "failureDetectionEnabled=false"]))
    assert "about 3." in text.splitlines()[0] and "host monitor" not in text.splitlines()[0]
