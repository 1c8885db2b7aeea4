"""The cloud load balancers' emulations on this host's kernel, each with short health-check timers
(within the provider's documented ranges): the emulated checker takes the silent primary out, and
each client's wait ends where its kernel, or the provider's documented reset, says. The witnesses:
lbctl's own landing time in the checker's log, Docker's log clock for the checks' schedule, and
the kernel's numbers (tests/kernel_facts.py)."""
import pytest

from harness.control import control_plane
from harness.control.cloud_lb import TIMERS_LATE_S
from harness.measure.health_checks import stamp
from harness.measure.run_record import first_fault
from harness.scenario import of_run
from harness.store import RunDir
from harness.topology import DIRECTOR

from tests.control_plane_contract import check_changes
from tests.kernel_facts import RETRIES2, assert_error_within, blackhole_bounds
from tests.scenarios.conftest import cells

OBSERVE_S = 25
CELLS = [{"tcp_retries2": 15}, {"tcp_retries2": 5}]
SHORT = {"aws-nlb": {"interval": 5, "timeout": 2, "unhealthy_threshold": 2},
         "gcp-passthrough": {"interval": 5, "timeout": 2, "unhealthy_threshold": 2},
         "azure-standard": {"interval": 5, "unhealthy_threshold": 1}}
SCENARIOS = {"aws-nlb": "control-aws-nlb-failover", "gcp-passthrough": "control-gcp-failover",
             "azure-standard": "control-azure-failover"}


def run_plane(run_scenario, name):
    summary, path = run_scenario(SCENARIOS[name], control={name: SHORT[name]}, cells=CELLS, warmup_s=5,
                                 observe_s=OBSERVE_S, load={"probe": {"proto": "mysql", "interval_ms": 100}})
    check_changes(path)             # the plane's contract (tests/control_plane_contract.py)
    run = RunDir(path)
    fault = first_fault(run.events())
    lead = of_run(run).probe.interval_ms / 1000 + fault["uncertainty_s"]
    plane = control_plane(name, tuple(SHORT[name].items()))
    [change] = [c for c in plane.changes(run) if c.t >= fault["started_t"]]
    check_schedule_against_dockers_clock(run, plane, fault, change)
    by_name = cells(summary)
    # tcp_retries2=5: its own kernel, whatever the load balancer did (its ladder from the base RTO ss saw)
    r5 = by_name["r5"]["probe"]
    rto = by_name["r5"]["predicted"]["base_rto_s"]
    assert r5["error"], r5
    assert_error_within(by_name["r5"], blackhole_bounds(5, lead, rto), "r5")
    return run, fault, change, by_name["r15"]["probe"], lead


def check_schedule_against_dockers_clock(run, plane, fault, change):
    """The emulator's lag, which the model's window takes from the checker's own stamp, held to a
    clock outside it: the schedule puts the first failing check within one interval of the death
    (late by at most TIMERS_LATE_S), the deciding check's end is the one the change's lag counts
    from, and Docker's log stamps each failed check's line no earlier than that check's scheduled
    end (each line names its own, read on the wall clock when it failed: a CI make test,
    2026-12-03, had a first check's line 15 ms before the end the deciding check's reading implied,
    5 s later, the machine's wall clock set 26.5 s forward 20 s after); as many failed as the threshold."""
    interval, timeout, threshold = plane.timers()
    failed = [(stamp(line), float(line.rsplit("due to end at ", 1)[1].rstrip(")")))
              for line in run.read(run.service_log(DIRECTOR)).splitlines()
              if f"check of {change.backend} failed" in line and stamp(line) >= fault["started_t"]]
    assert len(failed) == threshold, failed
    first_due = failed[0][1] - timeout
    assert fault["t"] - TIMERS_LATE_S <= first_due <= fault["t"] + interval + fault["uncertainty_s"] + 0.01, (
        first_due - fault["t"])
    assert failed[-1][1] == pytest.approx(change.t - change.took_s, abs=0.002), (failed, change)
    assert all(logged >= due_end - 0.01 for logged, due_end in failed), failed


@pytest.mark.parametrize("name", ["gcp-passthrough", "azure-standard"])
def test_a_dead_targets_flows_persist_and_each_client_waits_for_its_own_kernel(run_scenario, name):
    run, fault, change, r15, _ = run_plane(run_scenario, name)
    # tcp_retries2=15 gives up only after RETRIES2[15]'s budget: the change did not end its wait
    assert RETRIES2[15][1] > OBSERVE_S and change.t - fault["t"] < OBSERVE_S
    assert r15["detect_s"] is None and r15["error"] is None, r15


def test_aws_nlb_resets_a_dead_targets_flows_at_their_next_retransmission(run_scenario):
    run, fault, change, r15, lead = run_plane(run_scenario, "aws-nlb")
    landed = change.t - fault["t"]
    # not before the change (its own kernel would wait RETRIES2[15]); at the first retransmission
    # after it: the RTO doubles, so the next one comes by twice the time since the first send, plus an RTO
    assert r15["error"] and landed <= r15["detect_s"] <= 2 * (landed + change.uncertainty_s) + 0.5 + lead, (landed, r15)
