"""keepalived's log read back as health checks: failures, flaps, time out of rotation; and the
SYNs a check gets within its connect timeout, against docs/facts/production.md's SYN schedules."""
from harness.measure import health_checks
from harness.measure.syn_model import syn_retransmit_times
from tests.kernel_facts import syn_schedule

LOG = """\
2026-11-25T19:00:00.000000000Z Wed Nov 25 19:00:00 2026: TCP connection to [10.2.0.21]:tcp:3306 timeout.
2026-11-25T19:00:00.100000000Z Wed Nov 25 19:00:00 2026: Removing service [10.2.0.21]:tcp:3306 from VS [10.1.0.10]:tcp:3306
2026-11-25T19:00:00.200000000Z Wed Nov 25 19:00:00 2026: Adding sorry server [10.2.0.22]:tcp:3306 to VS [10.1.0.10]:tcp:3306
2026-11-25T19:00:02.100000000Z Wed Nov 25 19:00:02 2026: TCP connection to [10.2.0.21]:tcp:3306 success.
2026-11-25T19:00:02.100000000Z Wed Nov 25 19:00:02 2026: Adding service [10.2.0.21]:tcp:3306 to VS [10.1.0.10]:tcp:3306
2026-11-25T19:00:05.000000000Z Wed Nov 25 19:00:05 2026: TCP_CHECK on service [10.2.0.21]:tcp:3306 failed.
2026-11-25T19:00:05.000000000Z Wed Nov 25 19:00:05 2026: Removing service [10.2.0.21]:tcp:3306 from VS [10.1.0.10]:tcp:13307
"""
T0 = health_checks.stamp("2026-11-25T19:00:00Z x")


def test_flaps_failures_and_time_out_of_rotation_per_real_server():
    servers = health_checks.parse(LOG)
    report = health_checks.summarize(servers, T0 - 1, None, run_end=T0 + 6)
    assert report == {"10.2.0.21:3306": {"failed_checks": 2, "flaps": 2, "virtual_servers_hit": 2,
                                         "out_s": round((2.1 - 0.1) + (6.0 - 5.0), 3)}}
    before = health_checks.summarize(servers, T0 - 10, T0 - 1, run_end=T0 + 6)
    assert before["10.2.0.21:3306"] == {"failed_checks": 0, "flaps": 0, "virtual_servers_hit": 0, "out_s": 0.0}


def test_a_check_gets_its_first_syn_and_each_retransmission_before_its_connect_timeout():
    # 6.1 resends at 1, 3, 7 s; 6.12 (tcp_syn_linear_timeouts=4) at 1, 2, 3, 4, 5, 7 s
    assert list(syn_retransmit_times(0, 6)) == list(syn_schedule(0))
    assert list(syn_retransmit_times(4, 10)) == list(syn_schedule(4))
    assert health_checks.syn_chances(2.5, syn_schedule(0)) == 2
    assert health_checks.syn_chances(2.5, syn_schedule(4)) == 3
    assert health_checks.syn_chances(1.0, syn_schedule(4)) == 1      # the first retransmission comes too late


def test_the_limits_counters_come_from_the_targets_log():
    assert health_checks.syn_counts("x\n2026-11-25T19:00:00Z syn-limit dropped 120 passed 300\n") == (120, 300)
    assert health_checks.syn_counts("nothing") is None
