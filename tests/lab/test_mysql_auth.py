"""Each client of the zoo against MySQL 9.7 with its authentication cache cold, without TLS (the
zoo's own settings): caching_sha2_password then needs the server's RSA key (docs/facts/mysql.md). The
outcome is the driver's and the server's own: the first operation's answer or error, after the
server's cache was emptied (FLUSH PRIVILEGES) and nobody else connected."""
import json
import os

import pytest

from harness.databases import DATABASES
from harness.lab import ClientCell, ComposeLab, LabRequest

CLIENT = "client-default"
# A failing borrow waits the pool's whole connectionTimeout, so the failing case keeps it short; a
# working first login pays the JVM's first RSA exchange, which took over 2 s on a busy CI machine.
FAILING_BORROW_MS = "connectionTimeout=2000"
WORKING_BORROW_MS = "connectionTimeout=30000"
# (program and settings, the error text when it fails, or None when it works)
CASES = [
    (["probe", "--proto", "mysql"], None),                      # PyMySQL 1.0.2 with python3-cryptography
    (["zoo-jdbc"], "Public Key Retrieval is not allowed"),
    (["zoo-jdbc", "allowPublicKeyRetrieval=true"], None),
    (["zoo-hikari", FAILING_BORROW_MS], "Connection is not available"),
    (["zoo-hikari", WORKING_BORROW_MS, "allowPublicKeyRetrieval=true"], None),
    (["zoo-mariadb-jdbc"], "RSA public key is not available"),
    (["zoo-mariadb-jdbc", "allowPublicKeyRetrieval=true"], None),
    (["zoo-go"], None),
    (["zoo-node"], None),
    (["zoo-libmariadb"], None),
]


def first_operation(lab, vip, program, settings):
    if program == "probe":
        command = ["probe", *settings, "--host", vip, "--interval-ms", "500", "--duration-s", "1"]
    else:
        # DURATION_S 0: a zoo program runs one operation however long its driver took to load
        # (a JVM under load once took over the whole second the test gave it, and logged nothing).
        command = [program, vip, "3306", "500", "0", *settings]
    out = lab.exec(CLIENT, command, timeout=120).stdout
    return next(record for record in map(json.loads, out.splitlines()) if "t0" in record)


@pytest.fixture(scope="module")
def mysql_lab():
    lab = ComposeLab(LabRequest(project=f"blackhole-test-auth-{os.getpid()}", cells=[ClientCell("default")], servers=("db-primary",), database=DATABASES["mysql"]()))
    try:
        lab.up()
        yield lab
    finally:
        lab.down()


@pytest.mark.parametrize("command, error", CASES, ids=[" ".join(c) for c, _ in CASES])
def test_a_cold_caching_sha2_login_without_tls(mysql_lab, command, error):
    mysql_lab.exec("db-primary", ["mysql", "-e", "FLUSH PRIVILEGES"])
    operation = first_operation(mysql_lab, mysql_lab.address("director", "front"), command[0], command[1:])
    if error is None:
        assert operation["ok"] and operation["server"] == "db-primary", operation
    else:
        assert not operation["ok"] and error in operation["detail"], operation
