"""scenarios/healthcheck-storm.yaml in a guest kernel, short: keepalived's checks of a healthy
primary from 8 virtual services on two directors, its SYNs limited to 5/s for 25 s. Bounds from
outside the harness: the scenario's own connect_timeout and limit, the SYN schedules of
docs/facts/production.md (the guest kernel's), and keepalived's own log."""
import pytest

from harness.measure import health_checks
from harness.signals.connect import ConnectLatency, connect_log
from tests.kernel_facts import assert_answered_at_syn_retransmissions, syn_schedule

pytestmark = pytest.mark.kernel
CONNECT_TIMEOUT_S, DELAY_LOOP_S = 2.5, 1.0      # scenarios/healthcheck-storm.yaml
LIMITED_S = 25


def test_a_limit_on_a_healthy_servers_syns_makes_keepalived_flap_it_and_only_while_it_lasts(run_in_guest, guest):
    steps = [{"fault": "syn_limit", "target": "db-primary", "rate_per_s": 5}, {"wait": f"{LIMITED_S}s"},
             {"heal": "syn_limit"}, {"wait": "10s"}]
    summary, run = run_in_guest("healthcheck-storm", warmup_s=10, steps=steps, observe_s=60)
    t_fault = summary["fault"]["t"]
    part = summary["signals"]["health_checks"]
    healed_t = t_fault + summary["signals"]["connect"]["healed_after_s"]
    linear = 4 if tuple(map(int, guest.kernel_release().split(".")[:2])) >= (6, 5) else 0
    flaps = 0
    for director, d in part["directors"].items():
        assert d["before"] and all(s["flaps"] == 0 and s["failed_checks"] == 0 for s in d["before"].values()), director
        # every SYN a check sends before connect_timeout: the first, and the kernel's retransmissions
        assert d["syns_per_check"] == 1 + sum(t < CONNECT_TIMEOUT_S for t in syn_schedule(linear)), d
        servers = health_checks.parse(run.read(run.service_log(director)))
        failures = [t for (_, vs), s in servers.items() if vs is None for t in s.failed if t >= t_fault - 1]
        removals = [gone for (_, vs), s in servers.items() if vs for gone, _ in s.out if gone >= t_fault - 1]
        # a check that failed began while the limit was on: it ended at most connect_timeout after the heal
        assert all(t_fault <= t <= healed_t + CONNECT_TIMEOUT_S + DELAY_LOOP_S for t in failures + removals), director
        flaps += len(removals)
    assert flaps > 0, "16 checks a second against a limit of 5: keepalived never took the primary out"
    dropped = part["limited_backends"]["db-primary"]["syns_dropped"]
    assert dropped > 0
    # the clients' connects share the limit: each answered after k SYN retransmissions of their kernel
    connects, _ = connect_log.parse(run.read(ConnectLatency.file(run, "log")))
    assert_answered_at_syn_retransmissions(connects, summary["signals"]["connect"]["syn_schedule"]["tcp_syn_linear_timeouts"])
    print(f"flaps {flaps}; limit dropped {dropped} SYNs; {part['directors']['director']['during']}")
