"""Every database engine (harness/databases/) keeps the contract faults and runs rely on, on a
real lab: its version, replication from primary to replica, promote, demotion in place (a
client's connection ended, writes refused), pause/resume and kill.
Each is witnessed by the server itself (its SQL answers, its process state), not by the engine's
own code."""
import os
import re
import threading
import time

import pytest

from harness.databases import DATABASES
from harness.errors import LabError
from harness.lab import ClientCell, ComposeLab, LabRequest

PRIMARY, REPLICA = "db-primary", "db-replica"
HELD_S = 30            # a statement that holds its connection far longer than the test waits for its end
SLEEP = {"postgres": f"SELECT pg_sleep({HELD_S})"}


def sql(lab, server, query, timeout=30):
    return lab.exec(server, lab.database.sql_command(query), timeout=timeout).stdout.strip()


def until(what, condition, limit_s=60):
    deadline = time.monotonic() + limit_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {limit_s} s: {what}")
        time.sleep(0.2)


def process_state(lab, server):
    return lab.exec(server, ["ps", "-o", "stat=", "-C", lab.database.server_process], check=False).stdout.strip()


@pytest.mark.parametrize("name", sorted(DATABASES))
def test_a_database_engine_keeps_the_contract(name):
    engine = DATABASES[name]()
    lab = ComposeLab(LabRequest(project=f"blackhole-test-db-{name}-{os.getpid()}", cells=[ClientCell("default")], servers=(PRIMARY, REPLICA), database=engine))
    try:
        lab.up()
        # its version, as the server itself reports it over SQL
        reported = re.match(r"\d+(\.\d+)+", sql(lab, PRIMARY, engine.version_sql))
        printed = lab.exec(PRIMARY, list(engine.version_command)).stdout
        assert reported and reported[0] in printed, (reported, printed)

        # replication: a row written on the primary reaches the replica, which refuses writes
        sql(lab, PRIMARY, "CREATE SCHEMA IF NOT EXISTS contract; CREATE TABLE contract.t (id INT PRIMARY KEY); "
                          "INSERT INTO contract.t VALUES (1)")
        until("the row on the replica", lambda: sql(lab, REPLICA, "SELECT COUNT(*) FROM information_schema.tables "
                                                                   "WHERE table_schema = 'contract'") == "1"
              and sql(lab, REPLICA, "SELECT COUNT(*) FROM contract.t") == "1")
        assert sql(lab, REPLICA, engine.read_only_sql) == "1"

        # promote: the replica takes writes
        engine.promote(lab, REPLICA)
        assert sql(lab, REPLICA, engine.read_only_sql) == "0"
        sql(lab, REPLICA, "INSERT INTO contract.t VALUES (2)")
        assert sql(lab, REPLICA, "SELECT COUNT(*) FROM contract.t") == "2"

        demoted_in_place(lab, engine)

        # pause: the process is stopped and answers nothing until resumed
        engine.pause(lab, PRIMARY)
        assert process_state(lab, PRIMARY).startswith("T")
        with pytest.raises(LabError, match="exited 124"):
            lab.exec(PRIMARY, ["timeout", "2", *engine.sql_command("SELECT 1")])
        engine.resume(lab, PRIMARY)
        assert sql(lab, PRIMARY, "SELECT 1") == "1"

        # kill: the server is gone, and the lab says so
        engine.kill(lab, PRIMARY)
        until("the primary reported gone", lambda: PRIMARY in lab.problems(), limit_s=30)
    finally:
        lab.down()


def demoted_in_place(lab, engine):
    """A client's connection held by a long statement is ended by the server, which stays up; then
    the server refuses writes, even its own superuser's, and still answers reads."""
    held = {}

    def hold():
        held["result"] = lab.exec(PRIMARY, engine.sql_command(SLEEP.get(engine.name, f"SELECT SLEEP({HELD_S})")),
                                  check=False, timeout=HELD_S + 10)
        held["ended"] = time.monotonic()
    sleeper = threading.Thread(target=hold)
    sleeper.start()
    sleeping = ("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(%'" if engine.name == "postgres"
                else "SELECT COUNT(*) FROM information_schema.processlist WHERE info LIKE 'SELECT SLEEP(%'")
    until("the held statement on the primary", lambda: sql(lab, PRIMARY, sleeping) == "1", limit_s=20)
    asked = time.monotonic()
    _, _, ended = engine.end_client_connections(lab, PRIMARY)
    sleeper.join(HELD_S / 2)
    assert not sleeper.is_alive() and held["result"].returncode != 0, held
    assert ended >= 1 and held["ended"] - asked < HELD_S / 2
    assert sql(lab, PRIMARY, "SELECT 1") == "1"
    if not engine.refuse_writes_sql:
        assert engine.cannot_refuse_writes
        return
    engine.refuse_writes(lab, PRIMARY)
    refused = lab.exec(PRIMARY, engine.sql_command("INSERT INTO contract.t VALUES (3)"), check=False)
    assert refused.returncode != 0 and "read-only" in refused.stderr, refused
    assert sql(lab, PRIMARY, "SELECT COUNT(*) FROM contract.t") == "1"
