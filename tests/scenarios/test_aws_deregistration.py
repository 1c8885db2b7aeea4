"""An AWS NLB target deregistered, then its instance terminated (scenarios/aws-nlb-deregistration*):
without connection termination (AWS's TCP default) the drained connections stay with the
deregistered target, and once it dies each client waits for its own kernel; with it, each is reset
at the delay's end, whatever its kernel's settings. The bounds come from the delay the scenario
gives AWS, from docs/facts/kernel.md's numbers (tests/kernel_facts.py), from the director's own
flow table (tests/flow_witness.py) and from the database's own answers in the probe's log (which
server answered: another process than the director)."""
import pytest

from harness import scenario
from harness.measure import probe_log
from harness.measure.run_record import first_fault
from tests.flow_witness import assert_blackholed_flow_kept_and_reconnection_elsewhere
from tests.kernel_facts import RETRIES2, assert_error_within, assert_within, blackhole_bounds, user_timeout_bounds
from tests.kernel_witness import first_failure
from tests.scenarios.conftest import cells, run_once

DELAY_S = 10
SHORT = {"warmup_s": 5, "observe_s": 20}
RESET_ARRIVES_S = 1.0            # the probe's next query after the drain's end (100 ms apart), its RST back


def shortened_run(tmp_path_factory, scenario_id):
    """The scenario with a 10 s delay (AWS takes 0-3600 s), the instance terminated a second after
    it: (summary, run, the deregistration's event, the termination's)."""
    _, raw = scenario.load(scenario_id)
    steps = raw["steps"]
    steps[0]["delay_s"], steps[1]["wait"] = DELAY_S, DELAY_S + 1
    run = run_once(tmp_path_factory, scenario_id, {"steps": steps, **SHORT})
    [deregistered, killed] = [e for e in run.events() if e.get("source") == "harness" and e["event"] == "fault"]
    return run.summary(), run, deregistered, killed


@pytest.fixture(scope="module")
def kept_run(tmp_path_factory):
    return shortened_run(tmp_path_factory, "aws-nlb-deregistration")


@pytest.fixture(scope="module")
def terminated_run(tmp_path_factory):
    return shortened_run(tmp_path_factory, "aws-nlb-deregistration-reset")


def answered_by(run, cell, start_t, end_t):
    """The servers that answered the cell's probe between two moments (the database's own hostname)."""
    return {op.get("server") for op in probe_log.parse(run.read(run.probe_log(cell))) if start_t <= op["t0"]
            and op["t1"] <= end_t and op["ok"]}


def test_without_termination_the_drained_connections_die_with_the_instance(kept_run):
    summary, run, deregistered, killed = kept_run
    assert first_fault(run.events())["name"] == "silent_kill"       # nothing the flows noticed came before it
    by_name = cells(summary)
    for name in by_name:
        # drained to the deregistered target, which went on answering them until it was terminated
        assert answered_by(run, name, deregistered["done_t"], killed["started_t"]) == {"db-primary"}, name
    lead = 0.1 + killed["uncertainty_s"]
    r5, ut = by_name["r5"]["probe"], by_name["r5-ut3000"]["probe"]
    rto = by_name["r5"]["predicted"]["base_rto_s"]           # the ladder from the base RTO ss saw
    assert r5["error"], r5
    assert_error_within(by_name["r5"], blackhole_bounds(5, lead, rto), "r5")
    assert_error_within(by_name["r5-ut3000"], user_timeout_bounds(3.0, lead), "TCP_USER_TIMEOUT 3000")
    r15 = by_name["r15"]["probe"]
    assert RETRIES2[15][1] > SHORT["observe_s"] and r15["detect_s"] is None, r15       # still on the dead target
    assert_blackholed_flow_kept_and_reconnection_elsewhere(run, "r5")
    assert r5["server_after"] == ut["server_after"] == "db-replica"


@pytest.mark.parametrize("cell", ["r5", "r5-ut3000", "r15"])
def test_with_termination_every_connection_is_reset_at_the_delays_end(terminated_run, cell):
    summary, run, deregistered, killed = terminated_run
    assert first_fault(run.events())["name"] == "aws_deregister"
    probe = cells(summary)[cell]["probe"]
    # not before the drain ended (lbctl's own landing time, plus the delay), and at the probe's next query
    failed = first_failure(run, cells(summary)[cell], first_fault(run.events())["t"])
    assert "Connection reset by peer" in failed["detail"], failed         # the client's kernel: ECONNRESET
    assert_within(probe["detect_s"], (DELAY_S, DELAY_S + deregistered["uncertainty_s"] + RESET_ARRIVES_S), cell)
    assert answered_by(run, cell, deregistered["done_t"], deregistered["t"] + DELAY_S) == {"db-primary"}
    assert probe["server_after"] == "db-replica"
    assert killed["started_t"] > deregistered["t"] + DELAY_S          # terminated after the drain ended
