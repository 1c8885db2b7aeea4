"""An operator's commands on HAProxy's runtime API, on this host's kernel. Witnesses: HAProxy's
own session log (how and when it ended each session), tcpdump on the director (what it sent the
client), and the clients' own record of which server answered each operation."""
import json

from harness.measure import haproxy_log
from harness.measure.run_record import first_fault
from harness.store import RunDir

from tests.scenarios.conftest import cells
from tests.scenarios.haproxy_witness import closed_on_wire, sent_to, sessions

DELIVERY_S = 0.5


def command_stamps(fault, director):
    """(before, after): the director's own clock around the runtime API command (faults/haproxy_server.py)."""
    stamps = [float(w) for w in fault["seen"][director].split() if w.replace(".", "", 1).isdigit()]
    return stamps[0], stamps[-1]


def probe_ops(run, cell):
    return [json.loads(line) for line in run.read(run.probe_log(cell)).splitlines()
            if line.startswith("{") and '"t1"' in line]


def test_maintenance_takes_no_session_from_a_live_primary(run_scenario):
    summary, path = run_scenario("haproxy-switchover", observe_s=8)
    run, by_name = RunDir(path), cells(summary)
    fault = first_fault(run.events())
    for name, cell in by_name.items():
        # every operation after the command still answered, by the old primary, on the same connection
        after = [op for op in probe_ops(run, name) if op["t0"] > fault["t"]]
        assert after and all(op["ok"] and op["server"] == "db-primary" for op in after), name
        assert len({op["conn"] for op in after}) == 1 and cell["probe"]["detect_s"] is None, name
    # HAProxy took the server to maintenance, and ended no session before the run did
    [down] = haproxy_log.state_changes(run.read(run.service_log("director")))
    assert down.state == "DOWN" and down.reason == haproxy_log.MAINTENANCE and down.t >= fault["started_t"]
    assert not [s for s in sessions(run, "director") if fault["t"] < s.ended_t and s.termination != "--"]


def test_shut_sessions_move_to_the_replica_and_only_shutdown_backup_sessions_brings_them_back(run_scenario):
    summary, path = run_scenario("haproxy-failback", observe_s=15)
    run, by_name = RunDir(path), cells(summary)
    steps = [e for e in run.events() if e.get("event") == "fault"]
    shut_t = steps[0]["t"]
    for name, director in (("r15", "director"), ("r15-backback", "director-backback")):
        killed = [s for s in sessions(run, director) if s.termination == "K-"]
        assert len(killed) == 1, (name, killed)
        closed_t = closed_on_wire(run, director, killed[0])
        # from the command on this director, stamped there before and after it was sent (the two
        # directors' commands go side by side: on a busy machine the second began 0.79 s after the first)
        sent_t, done_t = command_stamps(steps[0], director)
        assert sent_t <= closed_t <= done_t + DELIVERY_S, (name, closed_t - sent_t, done_t - sent_t)
        flags = sent_to(run, director, by_name[name])
        assert flags and flags[0] == "F.", (name, flags)      # a FIN first (a RST may follow)
        error = shut_t + by_name[name]["probe"]["detect_s"]
        assert by_name[name]["probe"]["error"] and -0.01 <= error - closed_t <= DELIVERY_S
    # once the primary is ready again: shut on the backup with shutdown-backup-sessions, back on the primary
    back = [s for s in sessions(run, "director-backback") if s.termination == "U-"]
    assert len(back) == 1 and back[0].server == "standby"
    ready_sent_t, ready_done_t = command_stamps(steps[1], "director-backback")
    assert ready_sent_t <= closed_on_wire(run, "director-backback", back[0]) <= ready_done_t + DELIVERY_S + 2
    last = {name: probe_ops(run, name)[-1]["server"] for name in by_name}
    assert last == {"r15": "db-replica", "r15-backback": "db-primary"}, last
    assert not [s for s in sessions(run, "director") if s.termination == "U-"]
