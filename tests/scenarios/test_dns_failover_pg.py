"""The dns control plane on PostgreSQL 15 (scenarios/dns-failover-pg.yaml): libpq (the lab's probe),
pgJDBC through the JVM's cache and listing both servers, pgx listing both servers, and libpq and pgx
keeping only a server that takes writes. The witnesses are test_dns_failover.py's (the name
server's own log, each client's log of where its connects went, the kernel's numbers) and the
promoted server's own log of when it began to take writes."""
from harness.measure.health_checks import stamp
from harness.measure.run_record import first_fault
from harness.scenario import of_run
from harness.store import RunDir

from tests.kernel_facts import REPORT_LATE_S, assert_error_within, assert_within, blackhole_bounds
from tests.machine_stall import wakeup_late_s
from tests.scenarios.conftest import cells
from tests.scenarios.test_dns_failover import LOOKUP_LATE_S, check_host_list, check_run, lead_s, probe_records

# On PostgreSQL: libpq (the lab's probe), pgJDBC through the JVM's cache, and pgJDBC listing both servers
PG_CELLS = [{"name": "libpq-connect-timeout-5s", "tcp_retries2": 5}]
PG_JVM_CELLS = [{"name": "pgjdbc-ttl-5s", "client": "pgjdbc", "tcp_retries2": 5,
                 "pgjdbc": {"connectTimeout": 2, "networkaddress.cache.ttl": 5}}]
# libpq (the lab's probe) listing both servers: libpq's blocking connect holds each host's try to
# connect_timeout (docs/facts/postgres.md), and looks each host up inside it: a connect that reached
# the second host holds two lookups (a clean clone's make test, 2026-12-05: 2.239 s with
# connect_timeout 2, its first connection to a live server 0.081 s, nine cells reconnecting at once)
TWO_LOOKUPS_S = 2 * LOOKUP_LATE_S
LIBPQ_HOST_LIST = {"name": "libpq-host-list", "tcp_retries2": 5, "hosts": ["db-primary", "db-replica"],
                   "connect_timeout_s": 2}
# ... and keeping only a server that takes writes (target_session_attrs=read-write): the replica is
# refused until it is promoted
LIBPQ_READ_WRITE = {**LIBPQ_HOST_LIST, "name": "libpq-host-list-read-write", "target_session_attrs": "read-write"}
PGX_READ_WRITE = {"name": "pgx-host-list-read-write", "client": "pgx", "tcp_retries2": 5,
                  "hosts": ["db-primary", "db-replica"], "pgx": {"connect_timeout": 2, "target_session_attrs": "read-write"}}
PG_HOST_LIST = {"name": "pgjdbc-host-list", "client": "pgjdbc", "tcp_retries2": 5, "hosts": ["db-primary", "db-replica"],
                "pgjdbc": {"connectTimeout": 2}}
# pgx listing both servers: its connect_timeout bounds each host's try; the application's deadline per
# query alone is spent on the silent first host at every reconnect (pgx issue 2171)
PGX_HOST_LIST = {"name": "pgx-host-list", "client": "pgx", "tcp_retries2": 5, "hosts": ["db-primary", "db-replica"],
                 "pgx": {"connect_timeout": 2}}
PGX_DEADLINE = {"name": "pgx-host-list-deadline", "client": "pgx", "tcp_retries2": 5, "hosts": ["db-primary", "db-replica"],
                "pgx": {"queryTimeout": "3s"}, "waited_for": False}


def test_the_same_on_postgresql_with_libpq_and_pgjdbc(run_scenario):
    summary, path = run_scenario("dns-failover-pg", cells=PG_CELLS + PG_JVM_CELLS + [PG_HOST_LIST, PGX_HOST_LIST,
                                                                                    PGX_DEADLINE, LIBPQ_HOST_LIST,
                                                                                    LIBPQ_READ_WRITE, PGX_READ_WRITE],
                                 warmup_s=5, observe_s=90)
    check_run(summary, path, PG_CELLS, PG_JVM_CELLS, PG_HOST_LIST)
    run = RunDir(path)
    fault = first_fault(run.events())
    move = next(e for e in run.events() if e.get("name") == "dns_move")
    primary, replica = move["seen"]["old_address"], move["seen"]["new_address"]
    check_host_list(run, cells(summary)[PGX_HOST_LIST["name"]], PGX_HOST_LIST, fault, primary, replica,
                    lead_s(run, fault))
    check_deadline_spent_on_the_first_host(run, PGX_DEADLINE, fault, primary)
    check_libpq_host_list(run, cells(summary)[LIBPQ_HOST_LIST["name"]], LIBPQ_HOST_LIST, fault, primary, replica,
                          lead_s(run, fault))
    promoted = replica_takes_writes_t(run)
    check_libpq_read_write(run, cells(summary)[LIBPQ_READ_WRITE["name"]], LIBPQ_READ_WRITE, fault, promoted)
    check_never_on_a_standby(run, cells(summary)[PGX_READ_WRITE["name"]], PGX_READ_WRITE, fault, promoted)


def replica_takes_writes_t(run):
    """(from, by): when the promoted replica began to take writes, from its own log (Docker's stamps):
    not before it chose its new timeline, by the time it said "database system is ready to accept
    connections" (its recovery ends between the two; 11 ms apart in a run of 2026-12-05)."""
    lines = run.read(run.path / "logs" / "db-replica.log").splitlines()
    promoted = next(i for i, line in enumerate(lines) if "selected new timeline ID" in line)
    ready = next(line for line in lines[promoted:] if "database system is ready to accept connections" in line)
    return stamp(lines[promoted]), stamp(ready)


def check_never_on_a_standby(run, cell, spec, fault, promoted):
    """A client keeping only a server that takes writes: after its error, no statement was answered
    until the replica was promoted, and it was back afterwards, on the replica."""
    name = spec["name"]
    records = probe_records(run, name)
    # its error: the first statement after the fault that failed (one sent within the fault's
    # uncertainty may still be answered by the old primary: a CI make test's, 4 ms after its stamp)
    error = next((r for r in records if r.get("ok") is False and r["t1"] > fault["t"]), None)
    assert error is not None, f"{name}: no statement failed after the fault"
    answered = [r for r in records if r.get("ok") is True and r["t0"] >= error["t1"]]
    assert answered and answered[0]["t1"] >= promoted[0] and answered[0]["server"] == "db-replica", (
        name, answered[:1], promoted)
    assert cell["probe"]["server_after"] == "db-replica", cell["probe"]


def check_libpq_read_write(run, cell, spec, fault, promoted):
    """libpq listing both servers with target_session_attrs=read-write: every connect after the error
    tried the silent first host for connect_timeout, then found the second in recovery and refused
    it, until the second was promoted; the connect under way then got through."""
    check_never_on_a_standby(run, cell, spec, fault, promoted)
    (chose_timeline_t, ready_t), name, records = promoted, spec["name"], probe_records(run, spec["name"])
    live_s = next(r["connected"] - r["connect_t"] for r in records if "connected" in r)
    failed = [r for r in records if r.get("ok") is False and "address" in r and r["t0"] > fault["t"]]
    assert failed, f"{name}: no connect after the error was refused"
    for attempt in failed:
        assert attempt["error"] == "PG_READ_ONLY" and "timeout expired" in attempt["detail"], attempt
        late_s = wakeup_late_s(run, attempt["connect_t"] + 2.0, attempt["t1"], REPORT_LATE_S)
        assert_within(attempt["t1"] - attempt["connect_t"], (2.0, 2.0 + TWO_LOOKUPS_S + live_s + late_s),
                      f"{name}: the silent first host's try and the standby's refusal")
        assert attempt["t1"] <= ready_t + REPORT_LATE_S, (attempt, ready_t)
    through = next(r for r in records if "connected" in r and r["connected"] > fault["t"])
    assert through["host"] == "db-replica.lab", through
    assert_within(through["connected"] - ready_t, (chose_timeline_t - ready_t, 2.0 + TWO_LOOKUPS_S + live_s + REPORT_LATE_S),
                  f"{name}: the connect under way at the promotion")


def check_libpq_host_list(run, cell, spec, fault, primary, replica, lead):
    """libpq listing both servers: its first connection went to the first host (alive then) at once;
    each connect after the error tried the silent first host for connect_timeout, then reached the
    second. libpq does not say which hosts a successful connect tried: the witnesses are the host it
    reached and the time the connect took, against its first connection's to a live server."""
    name = spec["name"]
    assert_error_within(cell, blackhole_bounds(5, lead, cell["predicted"]["base_rto_s"]), name)
    connects = [r for r in probe_records(run, name) if "connected" in r]
    first = connects[0]
    assert (first["host"], first["address"]) == ("db-primary.lab", primary), first
    live_s = first["connected"] - first["connect_t"]
    after = [r for r in connects if r["connected"] > fault["t"]]
    assert after and all((r["host"], r["address"]) == ("db-replica.lab", replica) for r in after), after
    for r in after:
        late_s = wakeup_late_s(run, r["connect_t"] + 2.0, r["connected"], REPORT_LATE_S)
        assert_within(r["connected"] - r["connect_t"], (2.0, 2.0 + TWO_LOOKUPS_S + live_s + late_s),
                      f"{name}: a connect that tried the silent first host, then reached the second")
    # back once the first connect after the error (begun within the probe's interval) reached the second host
    error_s, back_s = cell["probe"]["detect_s"], cell["probe"]["recover_s"]
    interval_s = of_run(run).probe.interval_ms / 1000
    assert back_s is not None, cell["probe"]
    assert_within(back_s - error_s, (2.0, 2.0 + interval_s + TWO_LOOKUPS_S + 2 * live_s + REPORT_LATE_S),
                  f"{name}: back after its error")


def check_deadline_spent_on_the_first_host(run, spec, fault, primary):
    """pgx with the application's 3 s deadline per query and no connect_timeout: every reconnect
    spends the whole deadline on the silent first host; the second host's try begins with nothing of
    it left and fails at once, so the client never connects again while the first host is silent."""
    records = probe_records(run, spec["name"])
    errors = [r for r in records if r.get("ok") is False and r["t1"] > fault["t"]]
    tries = [r for r in records if "connecting" in r and r["connecting"] > fault["t"]]
    assert len(errors) >= 3 and not [r for r in records if "connected" in r and r["connected"] > fault["t"]], errors
    assert {r["address"] for r in tries if r["host"] == "db-primary.lab"} == {primary}, tries
    for error in errors:
        late_s = wakeup_late_s(run, error["t0"] + 3.0, error["t1"], REPORT_LATE_S)
        assert_within(error["t1"] - error["t0"], (3.0, 3.0 + late_s), f"{spec['name']}: a query's deadline")
        for second in (r for r in tries if r["host"] == "db-replica.lab" and error["t0"] <= r["connecting"] <= error["t1"]):
            assert second["connecting"] - error["t0"] >= 3.0 and error["t1"] - second["connecting"] < REPORT_LATE_S, (
                error, second)
