"""DB_ENGINE: which database engine a run's servers run, and how a run's record names it."""
import pytest

from harness.report.tables import database_line
from harness.scenario import ScenarioError, load
from harness.signals.combined import database_ran

MYSQL_PRINTED = "/usr/sbin/mysqld  Ver 9.7.4-2 for Linux on x86_64 ((Debian))"
MARIADB_PRINTED = "mariadbd  Ver 10.11.14-MariaDB-0+deb12u2 for debian-linux-gnu on x86_64 (Debian 12)"


def test_db_engine_override_picks_a_registered_engine_and_refuses_others():
    assert load("lvs-switchover")[0].database == "mariadb"
    assert load("lvs-switchover", {"DB_ENGINE": "mysql"})[0].database == "mysql"
    with pytest.raises(ScenarioError, match="database: must be one of mariadb, mysql, not 'oracle'"):
        load("lvs-switchover", {"DB_ENGINE": "oracle"})


def test_a_run_names_the_engine_and_the_version_its_server_printed():
    env = {"database": "mysql", "versions": {"mysql": MYSQL_PRINTED}}
    assert database_ran(env) == {"engine": "mysql", "version": "9.7.4-2"}
    assert database_line({"database": database_ran(env)}) == "MySQL 9.7.4-2"
    mariadb = database_ran({"database": "mariadb", "versions": {"mariadb": MARIADB_PRINTED}})
    assert database_line({"database": mariadb}) == "MariaDB 10.11.14-MariaDB-0+deb12u2"


def test_a_run_recorded_before_engines_were_ran_mariadb():
    assert database_ran({"versions": {}}) == {"engine": "mariadb", "version": None}
    assert database_line({}) == "MariaDB"
