"""One failover measures a whole grid of knobs; per-socket options reach unmodified programs."""
import json

from harness.measure import ss_log
from harness.load import probe
from tests.scenarios.conftest import cells


def test_one_failover_measures_every_cell_of_the_matrix(matrix_run):
    summary, run_dir, wall_s = matrix_run
    by_name = cells(summary)
    assert len(by_name) >= 12
    knobs = {(c["knobs"]["tcp_retries2"], c["knobs"]["tcp_user_timeout_ms"]) for c in by_name.values()}
    assert {(r, u) for r in (3, 5, 8) for u in (0, 5000, 10000)} <= knobs
    outside = {name: (c["probe"]["detect_s"], c["predicted"]) for name, c in by_name.items()
               if not c["probe"]["within_window"]}
    assert not outside, f"cells outside the model window: {outside}"
    slowest = max(c["predicted"]["expected_s"] for c in by_name.values())
    assert wall_s <= slowest + 90, f"run took {wall_s:.0f} s, slowest cell predicted {slowest:.0f} s"

    # Cells differing only in socket options share a container (a namespace).
    env = json.loads((run_dir / "env.json").read_text())
    assert set(env["namespaces"]) == {"r3", "r5", "r8", "r15"}
    assert env["namespaces"]["r8"]["tcp_retries2"] == 8


def test_libsockopts_puts_tcp_user_timeout_on_sysbench(matrix_run):
    summary, _, _ = matrix_run
    cell = cells(summary)["sysbench-r15-ut5000"]
    sysbench = cell["sysbench"]
    assert sysbench["socket_options_applied"].get("TCP_USER_TIMEOUT") == 5000, "the kernel did not hold it"
    assert cell["knobs"]["tcp_retries2"] == 15
    assert 5.0 <= sysbench["detect_s"] <= 6.5, "sysbench did not give up at the user timeout"
    assert sysbench["reconnects"] > 0 and not sysbench["crashed"]


def test_ss_samples_show_the_retransmission_ladder_of_a_blackholed_socket(matrix_run):
    summary, run_dir, _ = matrix_run
    fault_t = summary["fault"]["t"]
    ports = probe.local_ports((run_dir / "clients" / "r8" / "probe.jsonl").read_text())
    samples = ss_log.for_ports(ss_log.parse((run_dir / "namespaces" / "r8" / "ss.txt").read_text()), ports[:1])
    during = [s for s in samples if fault_t < s.t < fault_t + 100]
    assert during, "no ss sample of the blackholed socket during the hang"
    retransmits = [s.retrans_total for s in during]
    assert retransmits == sorted(retransmits) and retransmits[-1] >= 6
    assert max(s.backoff for s in during) >= 6
    assert max(s.rto_ms for s in during) > 20_000


def test_idle_connections_keepalive_finds_the_dead_peer_and_nothing_else_does(run_scenario):
    summary, _ = run_scenario("keepalive-idle")
    by_name = cells(summary)
    keepalive, plain = by_name["r5-ka5-1-3-idle"], by_name["r5-idle"]
    assert keepalive["probe"]["error"] == "ETIMEDOUT" and keepalive["probe"]["within_window"]
    assert plain["probe"]["within_window"], plain
    # Without keepalive nothing happens until the client sends again after its idle period.
    assert plain["probe"]["detect_s"] > 20
