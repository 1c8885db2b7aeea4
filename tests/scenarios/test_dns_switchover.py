"""A primary demoted in place (scenarios/dns-switchover.yaml, MySQL 9.7): it turns read-only, the
replica is promoted and the name moved, then the old primary ends its clients' connections and stays
up. The witnesses are the servers themselves: MySQL's own error 1290 to the writer, each server's
ledger read back after the run, each query's @@hostname, the server's own clock around its KILLs;
and each JVM's own log of when it looked the name up."""
import json

from harness.load.clients import CLIENTS
from harness.measure import probe_log
from harness.measure.run_record import first_fault
from harness.signals.data import ledger
from harness.store import RunDir

from tests.machine_stall import wakeup_late_s
from tests.scenarios.conftest import cells
from tests.scenarios.test_client_zoo import JVM_NOTICE_S

# OpenJDK 17 without a security manager keeps a looked-up address 30 s (networkaddress.cache.ttl
# unset: java.security's sun.net.InetAddressCachePolicy default; docs/facts/dns.md)
JVM_DEFAULT_TTL_S = 30.0
INTERVAL_S = 0.1              # the scenario's probe interval
# how late a client's own timer may send on a busy 2-core machine (counted from the machine's resume
# when its sampler saw it stopped: tests/machine_stall.py), and how long a server's answer to a killed
# connection takes to reach it: both measured (docs/facts/kernel.md, harness/measure/predict.py)
TIMER_LATE_S, DELIVERY_S = 0.12, 0.05
# a JVM's report of what it read comes later (docs/facts/kernel.md, "What the tests allow"): a clean
# clone's make test (2026-12-06) had the three JVM probes send 0.256 s after the fault, at once, and
# report the server's end 0.124, 0.206 and 0.34 s later, the machine's sampler seeing no stall
READ_ONLY_ERROR = "MYSQL_1290"


def fault(run, name):
    return next(e for e in run.events() if e.get("source") == "harness" and e.get("event") == "fault"
                and e["name"] == name)


def test_a_demoted_primary_refuses_every_write_and_keeps_the_readers_whose_caches_still_name_it(run_scenario):
    summary, path = run_scenario("dns-switchover", warmup_s=5, observe_s=10)
    run = RunDir(path)
    read_only, moved, ended = fault(run, "read_only"), fault(run, "dns_move"), fault(run, "end_connections")
    assert first_fault(run.events())["name"] == "end_connections"
    assert ended["seen"]["connections_ended"] >= len(summary["cells"]), ended

    # the writer: nothing acknowledged by db-primary once it was read-only, each refusal MySQL's own
    writes, _ = ledger.parse_writes(run.read(run.path / "load" / "writer.jsonl"))
    demoted = [w for w in writes if w["t0"] > read_only["done_t"] and w.get("server") == "db-primary"]
    assert demoted and all(w["outcome"] != "ack" for w in demoted), demoted
    refused = [w for w in demoted if w["outcome"] == "failed"]
    assert refused and {w["error"] for w in refused} == {READ_ONLY_ERROR}, refused
    held = ledger.parse_ledger(run.read(run.path / "db" / "db-primary-ledger.tsv"))
    first_sent = {}
    for w in writes:
        first_sent.setdefault(w["seq"], w["t0"])
    assert not [seq for seq in held if first_sent.get(seq, 0) > read_only["done_t"]], "db-primary took a write"
    after_move = [w for w in writes if w["t0"] > moved["done_t"] and w["outcome"] == "ack"]
    assert after_move and after_move[0]["server"] == "db-replica", after_move[:3]

    # each reader: told once the server ended its connection, never before; back where its caches said
    by_name, fault_t = cells(summary), summary["fault"]["t"]
    for name, cell in by_name.items():
        probe = cell["probe"]
        assert ended["started_t"] - fault_t <= probe["detect_s"], (name, probe)
        sent_by_t = ended["done_t"] + INTERVAL_S
        driver = cell["client"]["name"] if "client" in cell else None        # none: the lab's own probe
        notice_s = JVM_NOTICE_S if driver and CLIENTS[driver].runtime == "JVM" else TIMER_LATE_S
        late_s = wakeup_late_s(run, sent_by_t, fault_t + probe["detect_s"], notice_s)
        assert probe["detect_s"] <= sent_by_t - fault_t + late_s + DELIVERY_S, (name, probe, late_s)
    assert by_name["glibc-by-name"]["probe"]["server_after"] == "db-replica"       # glibc asks the name server each time
    assert by_name["jvm-ttl-0"]["probe"]["server_after"] == "db-replica"
    assert by_name["jdbc-host-list"]["probe"]["server_after"] == "db-primary"      # its first host answers
    lookups = [r["connecting"] for r in probe_log.records(run.read(run.path / "clients" / "jvm-ttl-default" / "probe.jsonl"))
               if r.get("host") == "db.lab"]
    cached = lookups and ended["done_t"] - lookups[0] < JVM_DEFAULT_TTL_S
    assert by_name["jvm-ttl-default"]["probe"]["server_after"] == ("db-primary" if cached else "db-replica"), lookups
    print(json.dumps({"refused": len(refused), "jvm lookup before the end (s)": round(ended["done_t"] - lookups[0], 2),
                      "detect_s": {n: c["probe"]["detect_s"] for n, c in by_name.items()}}))


def test_on_postgresql_a_read_write_session_is_kept_off_the_demoted_primary_and_primary_alone_is_not(run_scenario):
    """default_transaction_read_only on a primary makes it read-only to libpq's read-write test but
    not to its primary test, which asks only whether the server is a standby (PostgreSQL's commit
    ee28cac, which added `primary`); pgx asks the same two questions, pgJDBC's primary asks
    transaction_read_only. Every refusal the writer met is the server's own SQLSTATE 25006."""
    summary, path = run_scenario("dns-switchover-pg", warmup_s=5, observe_s=10)
    run = RunDir(path)
    writes, _ = ledger.parse_writes(run.read(run.path / "load" / "writer.jsonl"))
    read_only = fault(run, "read_only")
    demoted = [w for w in writes if w["t0"] > read_only["done_t"] and w.get("server") == "db-primary"]
    assert demoted and all(w["outcome"] != "ack" for w in demoted), demoted
    assert {w["error"] for w in demoted if w["outcome"] == "failed"} == {"PG_25006"}, demoted
    back_on = {name: cell["probe"]["server_after"] for name, cell in cells(summary).items()}
    assert back_on == {"libpq-by-name": "db-replica", "libpq-host-list": "db-primary",
                       "libpq-read-write": "db-replica", "libpq-primary": "db-primary",
                       "pgx-read-write": "db-replica", "pgx-primary": "db-primary",
                       "pgjdbc-primary": "db-replica"}, back_on
