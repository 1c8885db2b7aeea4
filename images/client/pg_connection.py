"""The probe's and the writer's PostgreSQL connection (--proto postgres): libpq (libpq.py), its
blocking connect (a host list walked as libpq walks it, connect_timeout per host) and statements
whose answer is awaited at most the read timeout, the probe's own, as PyMySQL's read_timeout is for
MySQL (libpq itself has none: it waits for the kernel)."""
import errno
import os
import re
import select
import socket
import time

import libpq

Error = libpq.Error

# libpq puts the kernel's strerror in its message ("could not receive data from server: Connection
# timed out"): each is named by its errno, as the MySQL probe names a kernel error
STRERROR_NAMES = {os.strerror(code): name for code, name in errno.errorcode.items()}
SERVER_CLOSED = "server closed the connection unexpectedly"
# libpq's own reasons for giving a host up, in its message's line for that host (fe-connect.c)
CONNECT_REASONS = {"timeout expired": "PG_CONNECT_TIMEOUT", "session is read-only": "PG_READ_ONLY",
                   "session is not read-only": "PG_NOT_READ_ONLY", "server is in hot standby mode": "PG_STANDBY",
                   "server is not in hot standby mode": "PG_NOT_STANDBY"}


def tried_addresses(exc):
    """The addresses a failed libpq host-list connect tried, in order, from libpq's message (a line per
    host: 'connection to server at "db-primary.lab" (10.1.2.3), port 3306 failed: timeout expired', a
    host given as an address without the parentheses); None when it names none (a name that did not
    resolve)."""
    found = re.findall(r'connection to server at "([^"]*)"(?: \(([0-9.]+)\))?', str(exc))
    return ", ".join(address or host for host, address in found) or None


def error_name(exc):
    """TIMEOUT for the client's own read timeout; PG_CONNECT_TIMEOUT, PG_READ_ONLY, ... for libpq's
    own reason to give up a connect (its last host's, of a host list); ETIMEDOUT, ECONNRESET, ...
    when libpq's message carries the kernel's error; PG_SERVER_CLOSED when the server (or a proxy)
    closed the connection (a FIN); PG_<SQLSTATE> for a server's error."""
    if isinstance(exc, socket.timeout):
        return "TIMEOUT"                   # the probe's own read timeout, as the MySQL probe names it
    message = str(exc)
    last = message.strip().rsplit("\n", 1)[-1]
    reason = next((name for text, name in CONNECT_REASONS.items() if last.endswith(f"failed: {text}")), None)
    if reason:
        return reason
    for text, name in STRERROR_NAMES.items():
        if text in message:
            return name
    if SERVER_CLOSED in message:
        return "PG_SERVER_CLOSED"
    code = getattr(exc, "pgcode", None)
    return f"PG_{code}" if code else type(exc).__name__


class PostgresConnection:
    """host: one host, or several comma-separated that libpq tries in order (its host list);
    connect_timeout: libpq's, whole seconds per host (None: none, the kernel's SYN retries decide);
    read_timeout: the probe's own, s, for each statement's answer (None: the kernel decides)."""

    def __init__(self, host, port, user, password, connect_timeout, read_timeout, target_session_attrs=None):
        self.read_timeout = read_timeout
        self.conn = libpq.Connection({
            "host": host, "port": port, "user": user, "password": password, "dbname": "sbtest",
            "application_name": "blackhole-probe",
            "connect_timeout": None if connect_timeout is None else f"{connect_timeout:g}",
            "target_session_attrs": target_session_attrs})

    @property
    def host(self):
        return self.conn.host

    @property
    def hostaddr(self):
        return self.conn.hostaddr

    def _wait(self, limit_s, sent):
        """Wait for the answer; socket.timeout after limit_s (None: no limit)."""
        deadline = None if limit_s is None else time.monotonic() + limit_s
        fd = self.conn.fileno()
        while True:
            if sent:
                busy = self.conn.consume()
                if not busy:
                    return
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = select.select([fd], [] if sent else [fd], [], left)
            if not ready[0] and not ready[1]:
                raise socket.timeout("timed out")
            if not sent:
                sent = self.conn.flush()

    def fileno(self):
        return self.conn.fileno()

    def execute(self, sql, params=()):
        """The statement's rows (None for none), its answer awaited at most the read timeout."""
        self._wait(self.read_timeout, self.conn.send(sql, params))
        return self.conn.result()

    def operation(self):
        return self.execute("SELECT current_setting('lab.server_name')")[0][0]   # its hostname (images/postgres)

    def close(self):
        try:
            self.conn.close()
        except Exception:
            pass
