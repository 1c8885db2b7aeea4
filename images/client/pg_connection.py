"""The probe's PostgreSQL connection (probe --proto postgres): libpq through psycopg2, in its
asynchronous mode so that the probe's read timeout is the client's own, as PyMySQL's read_timeout
is for MySQL (libpq itself has none: it waits for the kernel)."""
import errno
import os
import select
import socket
import time

import psycopg2
import psycopg2.extensions

# libpq puts the kernel's strerror in its message ("could not receive data from server: Connection
# timed out"): each is named by its errno, as the MySQL probe names a kernel error
STRERROR_NAMES = {os.strerror(code): name for code, name in errno.errorcode.items()}
SERVER_CLOSED = "server closed the connection unexpectedly"


def error_name(exc):
    """TIMEOUT for the client's own read timeout; ETIMEDOUT, ECONNRESET, ... when libpq's message
    carries the kernel's error; PG_SERVER_CLOSED
    when the server (or a proxy) closed the connection (a FIN); PG_<SQLSTATE> for a server's error."""
    if isinstance(exc, socket.timeout):
        return "TIMEOUT"                   # the probe's own read timeout, as the MySQL probe names it
    message = str(exc)
    for text, name in STRERROR_NAMES.items():
        if text in message:
            return name
    if SERVER_CLOSED in message:
        return "PG_SERVER_CLOSED"
    code = getattr(exc, "pgcode", None)
    return f"PG_{code}" if code else type(exc).__name__


class PostgresConnection:
    def __init__(self, host, port, user, password, connect_timeout, read_timeout):
        self.read_timeout = read_timeout
        self.conn = psycopg2.connect(host=host, port=port, user=user, password=password, dbname="sbtest",
                                     application_name="blackhole-probe", async_=1)
        self._wait(connect_timeout)

    def _wait(self, limit_s):
        """Drive libpq until the connect or the query is done; socket.timeout after limit_s (None: no limit)."""
        deadline = None if limit_s is None else time.monotonic() + limit_s
        while True:
            state = self.conn.poll()
            if state == psycopg2.extensions.POLL_OK:
                return
            fd = self.conn.fileno()
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if state == psycopg2.extensions.POLL_READ:
                ready = select.select([fd], [], [], left)[0]
            else:
                ready = select.select([], [fd], [], left)[1]
            if not ready:
                raise socket.timeout("timed out")

    def fileno(self):
        return self.conn.fileno()

    def execute(self, sql, params=()):
        """The statement's rows (None for none), its answer awaited at most the read timeout."""
        cursor = self.conn.cursor()
        cursor.execute(sql, params)
        self._wait(self.read_timeout)
        return cursor.fetchall() if cursor.description else None

    def operation(self):
        return self.execute("SELECT current_setting('lab.server_name')")[0][0]   # its hostname (images/postgres)

    def close(self):
        try:
            self.conn.close()
        except Exception:
            pass
