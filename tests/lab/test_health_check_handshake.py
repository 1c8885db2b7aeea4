"""A finding, not a bug: keepalived has no MySQL checker, and a TCP_CHECK (connect, then close
without the MySQL handshake) is an aborted connect to the server. With name resolution on
(MariaDB's default; the lab's servers run with skip-name-resolve, which turns the host cache off)
the server blocks the checker's address after max_connect_errors (100) of them, and on a
masquerading director that address is every client's: all of them then get error 1129. The
director image's MISC_CHECK script (images/director/mysql-check: a real handshake and a query)
does not count against it. Checked on a second server in the primary's container, started with
name resolution on."""
import os
import time

from harness.lab import ClientCell, ComposeLab, LabRequest

PORT = "3307"
SECOND_SERVER = (
    "mkdir -p /tmp/resolving && cp -a /opt/mysql-initial/. /tmp/resolving/ && chown -R mysql:mysql /tmp/resolving && "
    "(mariadbd --user=mysql --datadir=/tmp/resolving --port=3307 --socket=/tmp/resolving.sock --skip-name-resolve=0 "
    "--skip-log-bin --pid-file=/tmp/resolving.pid >/tmp/resolving.log 2>&1 &) && "
    "for i in $(seq 1 100); do mariadb --socket=/tmp/resolving.sock -e 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.2; done && "
    "mariadb --socket=/tmp/resolving.sock -N -e \"CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest'; "
    "GRANT ALL ON *.* TO 'sbtest'@'%'; SELECT @@max_connect_errors\"")


def bare_connects(address, count):
    return (f"import socket, time\nfor _ in range({count}):\n"
            f"    s = socket.create_connection(('{address}', {PORT}), timeout=5); s.close(); time.sleep(0.01)\n")


def test_a_bare_tcp_check_gets_the_checkers_address_blocked_and_a_handshake_check_does_not():
    lab = ComposeLab(LabRequest(project=f"blackhole-test-checks-{os.getpid()}", cells=[ClientCell("default")], servers=("db-primary",)))
    try:
        lab.up()
        address = lab.address("db-primary", "back")
        limit = int(lab.exec("db-primary", ["bash", "-c", SECOND_SERVER]).stdout.split()[-1])
        assert limit == 100

        def login():
            return lab.exec("director", ["mariadb", f"--host={address}", f"--port={PORT}", "--user=sbtest",
                                         "--password=sbtest", "--skip-ssl", "-N", "-e", "SELECT 1"], check=False)
        # the handshake check, more times than the limit: the address stays welcome
        runs = lab.exec("director", ["bash", "-c", f"for i in $(seq 1 {limit + 20}); do "
                                     f"mysql-check {address} {PORT} 5 || echo failed; done"]).stdout
        assert "failed" not in runs
        assert login().returncode == 0
        # the bare connect, as TCP_CHECK does it
        lab.exec("director", ["python3", "-c", bare_connects(address, limit + 20)])
        time.sleep(0.5)
        blocked = login()
        assert blocked.returncode == 1 and "1129" in blocked.stderr and "blocked because of many connection errors" \
            in blocked.stderr, blocked.stderr
    finally:
        lab.down()
