"""The dns control plane on this host: the clients connect to the database's name; its host goes
silent, the replica is promoted and the name re-pointed. Each client's established connection ends
by its own kernel; each reconnect that still resolved the old address is blackholed too, and ends at
its connect timeout, its TCP_USER_TIMEOUT or its kernel's SYN retries. The witnesses: the name
server's own log (every answer it gave, stamped), the probe's log of the address each connect went
to, and the kernel's numbers (tests/kernel_facts.py)."""
import json

from harness.control.dns import Dns, NAME
from harness.load.clients import CLIENTS
from harness.measure.health_checks import stamp
from harness.measure.run_record import first_fault
from harness.scenario import of_run
from harness.store import RunDir
from harness.topology import DIRECTOR

from tests.control_plane_contract import check_changes
from tests.kernel_facts import (REPORT_LATE_S, SYN_GIVE_UP_S, assert_error_within, assert_within, blackhole_bounds,
                                user_timeout_bounds, wheel_slot_s)
from tests.machine_stall import wakeup_late_s
from tests.scenarios.conftest import cells
from tests.scenarios.test_client_zoo import JVM_NOTICE_S     # a JVM's own timer, reported

# The scenario's cells but the one whose reconnect waits out tcp_syn_retries=6 (~131 s): make test's budget.
CELLS = [{"name": "connect-timeout-5s", "tcp_retries2": 5},
         {"name": "syn-retries-2", "tcp_retries2": 5, "connect_timeout_s": 0, "tcp_syn_retries": 2},
         {"name": "user-timeout-3s", "tcp_retries2": 5, "tcp_user_timeout_ms": 3000}]
JVM_CELLS = [{"name": f"jvm-ttl-{name}", "client": "jdbc", "tcp_retries2": 5,
              "jdbc": {"connectTimeout": 2000, **({} if ttl is None else {"networkaddress.cache.ttl": ttl})}}
             for name, ttl in (("default", None), ("5s", 5), ("0", 0))]
HOST_LIST = {"name": "jdbc-host-list", "client": "jdbc", "tcp_retries2": 5, "hosts": ["db-primary", "db-replica"],
             "jdbc": {"connectTimeout": 2000}}
DENYING = {"name": "mariadb-j-host-list", "client": "mariadb-jdbc", "tcp_retries2": 5,
           "hosts": ["db-primary", "db-replica"], "mariadb-jdbc": {"connectTimeout": 2000}}
# docs/facts/dns.md: OpenJDK keeps a looked-up name 30 s unless told otherwise (no security manager)
JVM_DEFAULT_TTL_S = 30
# a lookup this close to its cache entry's end may have been answered either way (the JVM's clock
# against the stamp its log line got)
CACHE_EDGE_S = 0.05
# How long a lookup of a name may take on a busy machine: in a clean clone's make test (2026-12-05) a
# probe's try took 3.229 s from t0, dnsmasq's log stamping its question 0.14 s and its answer 0.22 s
# after t0. (A libpq host list's connect looks up each host inside it, so its time holds them.)
LOOKUP_LATE_S = 0.22


def probe_records(run, cell):
    return [json.loads(line) for line in run.read(run.path / "clients" / cell / "probe.jsonl").splitlines() if line]


def name_server_replies(run):
    """[(Docker's stamp, address)] of every IPv4 answer dnsmasq gave for the name, from its own log."""
    return [(stamp(line), line.rsplit(" is ", 1)[1].strip()) for line in run.read(run.service_log(DIRECTOR)).splitlines()
            if f" {NAME} is " in line and " is NODATA" not in line]


def attempt_bounds(cell, linear):
    """(low, high) s one connect into the silent address lasts, by the cell's own limit: the probe's
    connect timeout, TCP_USER_TIMEOUT on the connect (5.4+), or the kernel's SYN retries."""
    if cell.get("tcp_user_timeout_ms"):
        limit = cell["tcp_user_timeout_ms"] / 1000
        return limit, limit + wheel_slot_s(1.0) + REPORT_LATE_S
    if cell.get("connect_timeout_s", 5) == 0:
        low, high = SYN_GIVE_UP_S[(cell.get("tcp_syn_retries", 6), linear)]
        return low, high + REPORT_LATE_S
    limit = cell.get("connect_timeout_s", 5)
    return limit, limit + REPORT_LATE_S


# The AWS wrapper's host monitor, checking 1 s apart from 2 s into a statement at the latest, each
# check a 0.5 s connect (or an isValid on a connection it opened earlier), three missed and it aborts
MONITOR_CELL = {"name": "aws-wrapper-monitor", "client": "aws-jdbc",
                "aws-jdbc": {"connectTimeout": 2000, "failureDetectionTime": 2000, "failureDetectionInterval": 1000,
                             "failureDetectionCount": 3, "monitoring-connectTimeout": 500,
                             "networkaddress.cache.ttl": 0}}


def test_a_name_that_moves_leaves_each_reconnect_to_its_own_limits(run_scenario):
    summary, path = run_scenario("dns-failover", cells=CELLS + JVM_CELLS + [HOST_LIST, DENYING, MONITOR_CELL],
                                 warmup_s=5, observe_s=90)
    check_run(summary, path, CELLS, JVM_CELLS, HOST_LIST)
    check_host_monitor(summary, path, MONITOR_CELL)
    check_deny_list(summary, path, DENYING)


def check_run(summary, path, probe_cells, jvm_cells, host_list):
    check_changes(path)
    run = RunDir(path)
    fault = first_fault(run.events())
    [change] = [c for c in Dns(of_run(run).control_settings).changes(run) if c.t >= fault["started_t"]]
    move = next(e for e in run.events() if e.get("name") == "dns_move")
    old, new = move["seen"]["old_address"], move["seen"]["new_address"]
    replies = name_server_replies(run)
    # the name server's own record: the old address until the hosts file changed, the new one after
    assert all(address == old for t, address in replies if t < change.t), replies
    assert any(address == new for t, address in replies if t >= change.t), replies
    lead = lead_s(run, fault)
    by_name = cells(summary)
    for spec in probe_cells:
        check_probe_cell(run, by_name[spec["name"]], spec, fault, change, old, new, lead)
    for spec in jvm_cells:
        check_jvm_cell(run, by_name[spec["name"]], spec, fault, change, old, new, lead)
    check_host_list(run, by_name[host_list["name"]], host_list, fault, old, new, lead)


def lead_s(run, fault):
    return of_run(run).probe.interval_ms / 1000 + fault["uncertainty_s"]


def check_probe_cell(run, cell, spec, fault, change, old, new, lead):
    """The lab's probe (glibc's resolver, no cache): every connect made before the name moved went to
    the old address and lasted the cell's own limit; the next one got the new address."""
    name, rto = spec["name"], cell["predicted"]["base_rto_s"]
    user_s = spec.get("tcp_user_timeout_ms", 0) / 1000
    assert_error_within(cell, user_timeout_bounds(user_s, lead, rto) if user_s else blackhole_bounds(5, lead, rto), name)
    linear = run.env()["cells"][name]["sysctls_applied"].get("tcp_syn_linear_timeouts", 0)   # absent before 6.5
    records = probe_records(run, name)
    assert next(r for r in records if "connected" in r)["address"] == old, records[:3]
    failed = [r for r in records if "address" in r and r.get("ok") is False]
    through = next(r for r in records if "connected" in r and r["connected"] > fault["t"])
    assert failed, f"{name}: no reconnect met the silent address"
    for attempt in failed:
        assert attempt["address"] == old and attempt["t0"] <= change.t + change.uncertainty_s + 0.01, (name, attempt)
        # the kernel's part: from the lookup's answer (the connect's first SYN) to the error. The
        # lookup is not the kernel's (LOOKUP_LATE_S)
        assert_within(attempt["t1"] - attempt["connect_t"], attempt_bounds(spec, linear),
                      f"{name}: a connect into the silent address")
    # the connect that got through began right after the last one failed, once the name had moved
    assert through["address"] == new and through["connected"] >= change.t, (name, through, change)
    assert through["connected"] - failed[-1]["t1"] < 0.5 or failed[-1]["t0"] < change.t <= failed[-1]["t1"], (
        name, failed[-1], through)
    assert cell["probe"]["recover_s"] >= through["connected"] - fault["t"] - 0.001, (name, cell["probe"])
    assert cell["probe"]["server_after"] == "db-replica", cell["probe"]


def check_host_list(run, cell, spec, fault, primary, replica, lead):
    """A driver listing both servers by their own names (Connector/J, pgJDBC, pgx): each new connection
    tries the hosts in order, so the silent first one costs it the 2 s connect timeout before the
    second answers (Connector/J's failover proxy also moves the failed connection to the second at
    once; docs/facts/dns.md)."""
    name = spec["name"]
    assert_error_within(cell, blackhole_bounds(5, lead, cell["predicted"]["base_rto_s"]), name)
    lookups = [r for r in probe_records(run, name) if "connecting" in r and r["connecting"] > fault["t"]]
    assert {r["host"]: r["address"] for r in lookups} == {"db-primary.lab": primary, "db-replica.lab": replica}, lookups
    # the first new connection after the error: the silent host first, given up for the next within
    # one getConnection (Connector/J's proxy tries the first host again every 50 statements)
    # a new connection's try of the second host, and of the first host just before it (Connector/J's
    # proxy moving the failed connection to the second host tries no first host before it)
    after = next(r for i, r in enumerate(lookups) if r["host"] == "db-replica.lab"
                 and any(p["host"] == "db-primary.lab" for p in lookups[:i]))
    first = [r for r in lookups if r["connecting"] < after["connecting"]][-1]
    assert first["host"] == "db-primary.lab", (first, after)
    notice_s = JVM_NOTICE_S if CLIENTS[spec["client"]].runtime == "JVM" else REPORT_LATE_S
    late_s = wakeup_late_s(run, first["connecting"] + 2.0, after["connecting"], notice_s)
    assert_within(after["connecting"] - first["connecting"], (2.0, 2.0 + late_s),
                  f"{name}: its try of the silent first host")
    error_s, back_s = cell["probe"]["detect_s"], cell["probe"]["recover_s"]
    assert back_s is not None and back_s - error_s <= 2.0 + late_s + 0.5, (error_s, back_s)


def check_deny_list(summary, path, spec):
    """MariaDB Connector/J's sequential host list (its MultiPrimaryClient): at the lost connection the
    driver denies the silent host and connects to the next one itself, before it reports the error,
    and no connection of the JVM tries the denied host again; its connects are its own socket's."""
    run, name = RunDir(path), spec["name"]
    cell, fault = cells(summary)[name], first_fault(run.events())
    assert_error_within(cell, blackhole_bounds(5, lead_s(run, fault), cell["predicted"]["base_rto_s"]), name)
    move = next(e for e in run.events() if e.get("name") == "dns_move")
    records = probe_records(run, name)
    failed = next(r for r in records if r.get("ok") is False and r["t1"] > fault["t"])
    connects = [r for r in records if "connecting" in r and r["connecting"] > fault["t"]]
    assert connects and all(r["address"] == move["seen"]["new_address"] for r in connects), connects
    assert connects[0]["connecting"] < failed["t1"], (connects[0], failed)     # the driver's own, before the error
    error_s, back_s = cell["probe"]["detect_s"], cell["probe"]["recover_s"]
    interval_s = of_run(run).probe.interval_ms / 1000
    assert back_s is not None and back_s - error_s <= interval_s + JVM_NOTICE_S, (error_s, back_s)


def record_at(t, change, old, new):
    """What the name server answered at t: {old} before the change, {new} after, either within it."""
    if t < change.t:
        return {old}
    return {new} if t > change.t + change.uncertainty_s else {old, new}


def check_jvm_cell(run, cell, spec, fault, change, old, new, lead):
    """Connector/J through the JVM's cache: each lookup before a connect answered by the cache while
    the entry the last missed lookup made lives (its ttl), else by the record as the name server had
    it then; every connect to the old address failed at the 2 s connect timeout; back on the new one."""
    name = spec["name"]
    assert_error_within(cell, blackhole_bounds(5, lead, cell["predicted"]["base_rto_s"]), name)
    ttl = spec[spec["client"]].get("networkaddress.cache.ttl", JVM_DEFAULT_TTL_S)
    records = probe_records(run, name)
    lookups = [r for r in records if "connecting" in r and r["host"] == NAME]     # not the warm-up's, on loopback
    assert lookups, f"{name}: no lookup logged"
    entry = None                   # (made at, address) of the JVM's cache entry
    for lookup in lookups:
        t, got = lookup["connecting"], lookup["address"]
        cached = entry is not None and ttl != 0 and (ttl < 0 or t < entry[0] + ttl + CACHE_EDGE_S)
        surely_cached = cached and (ttl < 0 or t < entry[0] + ttl - CACHE_EDGE_S)
        allowed = {entry[1]} if surely_cached else record_at(t, change, old, new) | ({entry[1]} if cached else set())
        assert got in allowed, (name, lookup, entry, ttl, change)
        if not (cached and got == entry[1]):
            entry = (t, got)
    # the first failure is the query the blackhole held; each after it a connect into the silent address
    failed_connects = [r for r in records if r.get("ok") is False and r["t0"] > fault["t"]][1:]
    assert failed_connects, f"{name}: no reconnect met the silent address"
    for attempt in failed_connects:
        assert_within(attempt["t1"] - attempt["t0"], (2.0, 2.0 + JVM_NOTICE_S), f"{name}: a connect into the silent address")
    through = next(r for r in records if "connected" in r and r["connected"] > fault["t"])
    looked_up = [r for r in lookups if r["connecting"] <= through["connected"]][-1]
    assert looked_up["address"] == new and through["connected"] >= change.t, (name, looked_up, through)


def monitor_abort_s(spec):
    """(earliest, latest) s after the watched statement began that the wrapper's efm2 monitor aborts a
    connection whose host is silent (docs/facts/dns.md, from its source): its first check from the
    next second's hand-over (a pooled watch an earlier statement filed) to T + 1.1 s in; each check a
    connect ending at monitoring-connectTimeout or an isValid of 1 s that Connector/J may take twice;
    dead at the end of the first failed check ending (count - 1) x interval after the first began."""
    settings = spec["aws-jdbc"]
    time_s, interval_s = settings["failureDetectionTime"] / 1000, settings["failureDetectionInterval"] / 1000
    count, connect_s = settings["failureDetectionCount"], settings["monitoring-connectTimeout"] / 1000
    shortest, longest = min(connect_s, 1.0), max(connect_s, 2.0)
    needed = (count - 1) * interval_s
    return max(needed, shortest), time_s + 1.1 + needed + interval_s + longest + JVM_NOTICE_S


def check_host_monitor(summary, path, spec):
    """The wrapper's monitor checks the name, and while the name leads to the silent host its checks
    fail: it calls the host dead and aborts the connection long before the kernel would
    (tcp_retries2=15), each of its connects logged to the old address."""
    run = RunDir(path)
    fault = first_fault(run.events())
    move = next(e for e in run.events() if e.get("name") == "dns_move")
    records = probe_records(run, spec["name"])
    held = next(r for r in records if r.get("ok") is False and r["t1"] > fault["t"])
    checks = [r for r in records if "monitor_connecting" in r and fault["t"] < r["monitor_connecting"] < held["t1"]]
    assert all(c["address"] == move["seen"]["old_address"] for c in checks), checks
    assert any("*dead*" in r["message"] for r in records if "monitor" in r and r["monitor"] <= held["t1"]), (
        "the monitor called no host dead before the abort")
    assert_within(held["t1"] - held["t0"], monitor_abort_s(spec), f"{spec['name']}: the monitor's abort")
    assert cells(summary)[spec["name"]]["probe"]["detect_s"] < 10, cells(summary)[spec["name"]]["probe"]
