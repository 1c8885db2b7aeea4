"""make explain for the AWS Advanced JDBC Wrapper's host monitor where the clients connect to a name
that moves: its checks meet the silent host until the name moved and the JVM's entry ran out. Held
to what dns-failover measured on this host (docs/facts/dns.md, 2026-12-05, the name moved 16.6 s
after the death): with checks 1 s apart the monitor aborted the statement 3.09-3.53 s in and the
client was back at 17.1-17.6 s; at its defaults (tcp_retries2 8) its first check reached the new
primary and the kernel ended the statement at 108.0-108.1 s."""
import pytest

from harness.answer import answer, words
from harness.answer.explain import ExplainError, parse_knobs

NAME = ["DNS_MOVED_AFTER_S=16.6", "CLIENT=aws-jdbc", "connectTimeout=2000"]
FAST = NAME + ["failureDetectionTime=2000", "failureDetectionInterval=1000", "failureDetectionCount=3",
               "monitoring-connectTimeout=500", "networkaddress.cache.ttl=0"]


def found(knobs):
    return answer(parse_knobs(knobs)["QUESTION"])


def test_a_monitor_whose_verdict_comes_before_the_move_aborts_the_statement():
    fast = found(FAST)
    assert all(fast.error.earliest_s <= m <= fast.error.latest_s for m in (3.09, 3.53)), fast.error
    assert all(fast.back.earliest_s <= m <= fast.back.latest_s for m in (17.1, 17.6)), fast.back
    assert words.headline(fast).startswith("Answer: the wrapper's host monitor (failureDetectionTime 2 s")


def test_a_monitor_whose_checks_may_meet_the_moved_name_is_said_either_way():
    defaults = found(NAME + ["TCP_RETRIES2=8"])
    monitor = defaults.first
    assert monitor.otherwise is not None and monitor.otherwise.window.earliest_s <= 108.0 <= 108.1 <= \
        monitor.otherwise.window.latest_s
    said = words.headline(defaults)
    assert "if its checks meet the silent host, else the client's kernel (tcp_retries2=8) after about 106.5 s" in said


def test_a_monitor_whose_needed_checks_all_come_after_the_move_changes_nothing():
    late = found(["DNS_MOVED_AFTER_S=2", "CLIENT=aws-jdbc", "connectTimeout=2000", "TCP_RETRIES2=8",
                  "networkaddress.cache.ttl=0"])
    assert [limit.whose for limit in late.limits] == ["the client's kernel"]
    assert "reaches the live server" in late.error.basis


def test_behind_a_vip_the_monitor_is_still_not_answered():
    with pytest.raises(ExplainError, match="give DNS_MOVED_AFTER_S"):
        parse_knobs(["CLIENT=aws-jdbc"])
