"""Patroni promoting the replica by itself and its on_role_change callback re-pointing the database's
name (scenarios/patroni-dns-failover.yaml), on this host's kernel. Witnesses, each its own log:
Patroni's (when the replica took the leader key), the callback's (when it asked the director), the
director's (lab-dns-api: the record changed between two stamps), dnsmasq's (what it answered), and
PostgreSQL itself (which server answered a client: its lab.server_name). Patroni's documented timers
bound the promotion: the leader key lives `ttl` s and its holder renews it every `loop_wait`; Patroni
runs on_role_change right after it promotes (its source, postgresql/__init__.py: promote())."""
from harness.control.dns import NAME
from harness.load.clients import CLIENTS
from harness.measure.health_checks import stamp
from harness.measure.run_record import first_fault
from harness.scenario import of_run
from harness.store import RunDir
from harness.topology import DIRECTOR

from tests.control_plane_contract import check_changes
from tests.kernel_facts import REPORT_LATE_S, assert_error_within, blackhole_bounds
from tests.scenarios.conftest import cells
from tests.scenarios.test_client_zoo import JVM_NOTICE_S
from tests.scenarios.test_dns_failover import LOOKUP_LATE_S

TTL_S, LOOP_WAIT_S = 20, 5                # the scenario's Patroni timers
PROMOTING_S = 3.0                         # the key expired to the promotion logged (test_patroni.py's)
STAMP_EDGE_S = 0.05                       # two containers' lines, stamped by Docker as it reads them
# each cell's own limit on a connect to the silent address (the reconnect under way when the name moved)
CONNECT_LIMIT_S = {"libpq-by-name": 5.0, "pgjdbc-ttl-0": 2.0, "pgx-by-name": 2.0}


def log_lines(run, service, text):
    return [(stamp(line), line) for line in run.read(run.service_log(service)).splitlines() if text in line]


def test_patronis_callback_moves_the_name_and_each_client_follows_it(run_scenario):
    summary, path = run_scenario("patroni-dns-failover", warmup_s=5, observe_s=60)
    check_changes(path)             # the control plane's contract (tests/control_plane_contract.py)
    run, fault = RunDir(path), first_fault(RunDir(path).events())
    [(promoted, _)] = log_lines(run, "db-replica", "promoted self to leader")
    assert TTL_S - LOOP_WAIT_S <= promoted - fault["t"] <= TTL_S + PROMOTING_S, promoted - fault["t"]
    [(asked, _)] = [(t, line) for t, line in log_lines(run, "db-replica", "patroni-role-change:") if t > fault["t"]]
    [(moved, line)] = [(t, line) for t, line in log_lines(run, DIRECTOR, "lab-dns-api: db-replica promoted") if t > fault["t"]]
    changed_by = float(line.split()[-1])          # the record changed by this stamp (the director's clock)
    assert promoted - STAMP_EDGE_S <= asked <= moved + STAMP_EDGE_S, (promoted, asked, moved)
    new = line.split(" -> ")[1].split()[0]
    answers = [(stamp(l), l.rsplit(" is ", 1)[1].strip()) for l in run.read(run.service_log(DIRECTOR)).splitlines()
               if f" {NAME} is " in l and " is NODATA" not in l]
    assert all(address != new for t, address in answers if t < asked - STAMP_EDGE_S), answers
    clients = {c.name: c.client for c in of_run(run).cells}
    for name, cell in cells(summary).items():
        probe = cell["probe"]
        assert_error_within(cell, blackhole_bounds(5, 0.1 + fault["uncertainty_s"], cell["predicted"]["base_rto_s"]), name)
        assert probe["server_after"] == "db-replica", (name, probe)
        back = fault["t"] + probe["recover_s"]
        notice = JVM_NOTICE_S if CLIENTS[clients[name]].runtime == "JVM" else REPORT_LATE_S
        assert asked - STAMP_EDGE_S <= back <= changed_by + CONNECT_LIMIT_S[name] + LOOKUP_LATE_S + notice, \
            (name, back - fault["t"], changed_by - fault["t"])
    promotion = summary["signals"]["lb"]["promotion"]
    assert promotion["server"] == "db-replica" and abs(promotion["promoted_s"] - (promoted - fault["t"])) < 0.01
