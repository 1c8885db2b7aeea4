"""DB_ENGINE: which database engine a run's servers run, and how a run's record names it."""
import re

import pytest

from harness.databases import DATABASES
from harness.measure.summary_record import DatabaseRan
from harness.report.tables import database_line
from harness.scenario import ScenarioError, load
from harness.signals.combined import database_ran

MYSQL_PRINTED = "/usr/sbin/mysqld  Ver 9.7.4-2 for Linux on x86_64 ((Debian))"
MARIADB_PRINTED = "mariadbd  Ver 10.11.14-MariaDB-0+deb12u2 for debian-linux-gnu on x86_64 (Debian 12)"
POSTGRES_PRINTED = "postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)"


def test_db_engine_override_picks_a_registered_engine_and_refuses_others():
    assert load("lvs-switchover")[0].database == "mariadb"
    assert load("lvs-switchover", {"DB_ENGINE": "mysql"})[0].database == "mysql"
    assert load("lvs-switchover", {"DB_ENGINE": "postgres"})[0].database == "postgres"
    engines = ", ".join(sorted(DATABASES))
    with pytest.raises(ScenarioError, match=re.escape(f"database: must be one of {engines}, not 'oracle'")):
        load("lvs-switchover", {"DB_ENGINE": "oracle"})


def test_a_run_names_the_engine_and_the_version_its_server_printed():
    env = {"database": "mysql", "versions": {"mysql": MYSQL_PRINTED}}
    assert database_ran(env) == {"engine": "mysql", "version": "9.7.4-2"}
    assert database_line(DatabaseRan.read(database_ran(env))) == "MySQL 9.7.4-2"
    mariadb = database_ran({"database": "mariadb", "versions": {"mariadb": MARIADB_PRINTED}})
    assert database_line(DatabaseRan.read(mariadb)) == "MariaDB 10.11.14-MariaDB-0+deb12u2"
    postgres = database_ran({"database": "postgres", "versions": {"postgres": POSTGRES_PRINTED}})
    assert database_line(DatabaseRan.read(postgres)) == "PostgreSQL 15.20 on port 3306, the lab's database port, not its usual 5432"


def test_a_run_recorded_before_engines_were_ran_mariadb():
    assert database_ran({"versions": {}}) == {"engine": "mariadb", "version": None}
    assert database_line(DatabaseRan.read(None)) == "MariaDB"


def test_on_postgres_the_loads_speak_its_protocol_and_mysql_only_parts_are_refused_by_name():
    scenario = load("lvs-switchover", {"DB_ENGINE": "postgres"})[0]
    assert scenario.sysbench.driver == "pgsql" and scenario.writer.proto == "postgres"
    assert load("lvs-switchover")[0].sysbench.driver == "mysql"
    with pytest.raises(ScenarioError, match="uses the jdbc client, a MySQL driver: not on PostgreSQL"):
        load("client-zoo-short", {"DB_ENGINE": "postgres"})
    with pytest.raises(ScenarioError, match="check: mysql speaks MySQL's handshake: not on PostgreSQL"):
        load("keepalived-failover", {"DB_ENGINE": "postgres", "KEEPALIVED": "check=mysql"})
    assert load("keepalived-failover", {"DB_ENGINE": "postgres"})[0].database == "postgres"     # check: tcp


def test_explain_names_the_engines_error_and_its_librarys_cures_and_refuses_a_mysql_driver_on_postgres():
    from harness.answer import explain
    postgres = explain.explain(explain.parse_knobs(["TCP_RETRIES2=5", "DB_ENGINE=postgres"]))
    assert 'Expected: ETIMEDOUT (libpq: "could not receive data from server: Connection timed out")' in postgres
    assert "tcp_user_timeout=<ms>" in postgres and "MySQL error 2013" not in postgres
    mariadb = explain.explain(explain.parse_knobs(["TCP_RETRIES2=5"]))
    assert "MySQL error 2013" in mariadb and "libpq" not in mariadb
    with pytest.raises(explain.ExplainError, match="CLIENT=jdbc is a MySQL driver: not with DB_ENGINE=postgres"):
        explain.parse_knobs(["CLIENT=jdbc", "DB_ENGINE=postgres"])


def test_a_zoo_client_runs_on_the_engine_whose_protocol_it_speaks():
    from harness.answer import explain
    scenario = load("client-zoo-pg")[0]
    assert scenario.database == "postgres" and {c.client for c in scenario.cells} >= {"node-postgres"}
    with pytest.raises(ScenarioError, match="uses the pgjdbc client, a PostgreSQL driver: not on MariaDB"):
        load("client-zoo-pg", {"DB_ENGINE": "mariadb"})
    with pytest.raises(explain.ExplainError, match="CLIENT=node-postgres is a PostgreSQL driver: not with "
                                                   "DB_ENGINE=mariadb"):
        explain.parse_knobs(["CLIENT=node-postgres"])
    text = explain.explain(explain.parse_knobs(["CLIENT=node-postgres", "DB_ENGINE=postgres", "query_timeout=3000",
                                                "TCP_RETRIES2=5"]))
    assert "query_timeout=3000 ends a busy client's wait after about 3.0 s" in text.splitlines()[0]
