#!/usr/bin/env python3
"""writer HOST PORT RATE_PER_S DURATION_S ATTEMPTS [READ_TIMEOUT_S [PROTO]]

Sequence-numbered inserts through the VIP, one connection, autocommit, as an application that
must not lose writes: row `seq` goes into sbtest.ledger every 1/RATE s; a write that did not
get its acknowledgement is tried again with the same seq, up to ATTEMPTS times in all (1: never
again); READ_TIMEOUT_S (0, the default: none) bounds the wait for an answer. One JSON line per
attempt:
  {"seq": n, "attempt": k, "t0": sent, "t1": answered, "outcome": "ack" | "failed" | "in_doubt",
   "error": ..., "detail": ..., "server": the hostname of the server on the connection (once known)}
ack: the commit was acknowledged. failed: it certainly did not commit (no connection, or the
server answered with an error). in_doubt: the statement went out and no answer came (the
connection broke or timed out): it may have committed. Last: {"end": t, "seqs": n}.
The table is created if missing, on the first connection only (an auto-increment key: a retried
seq can be written twice). PROTO: mysql (the default, PyMySQL) or postgres (libpq: pg_connection).
The first write waits for the first connection (a lab still starting is not a failed write).
Ends at DURATION_S, or on SIGINT/SIGTERM (or its stdin's end, with WRITER_STOP_ON_EOF=1) once
the write in flight has its answer (its row must not commit unrecorded); a write still unanswered
STOP_GRACE_S after the signal (a blackhole holds it) is recorded as in_doubt with the error
STOPPED, and the writer ends."""
import importlib
import json
import os
import signal
import sys
import threading
import time

import pymysql

CREATE = ("CREATE TABLE IF NOT EXISTS sbtest.ledger (id BIGINT AUTO_INCREMENT PRIMARY KEY, seq BIGINT NOT NULL, "
          "attempt INT NOT NULL, t_sent DOUBLE NOT NULL, KEY (seq))")
# PostgreSQL: the same table, in a schema named as MySQL's database, so one query reads both
CREATE_PG = ("CREATE SCHEMA IF NOT EXISTS sbtest; CREATE TABLE IF NOT EXISTS sbtest.ledger (id BIGSERIAL PRIMARY KEY, "
             "seq BIGINT NOT NULL, attempt INT NOT NULL, t_sent DOUBLE PRECISION NOT NULL)")
INSERT = "INSERT INTO sbtest.ledger (seq, attempt, t_sent) VALUES (%s, %s, %s)"
INSERT_PG = "INSERT INTO sbtest.ledger (seq, attempt, t_sent) VALUES ($1, $2, $3)"     # libpq's parameters
CLIENT_ERRORS_FROM = 2000     # MySQL's client-side error codes (2013 lost connection, ...) start here
# After the stop signal, how long a write in flight waits for its answer: a server answers in
# milliseconds (seconds in a busy emulated guest); a blackhole never does.
STOP_GRACE_S = 3.0


class Stopped(Exception):
    """The run stopped the writer while a write waited for its answer."""


def emit(record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


class Writer:
    """One connection through the VIP and the writes on it; the engine's own subclass connects,
    inserts and tells an answered error (the server refused: it did not commit) from a lost one."""
    errors: tuple = (OSError,)

    def __init__(self, host, port, read_timeout_s):
        self.host, self.port, self.read_timeout_s = host, port, read_timeout_s or None
        self.conn, self.server, self.created = None, None, False
        self.in_flight = False         # a statement has gone out and its answer has not come

    def drop(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:
                pass
        self.conn = self.server = None

    def write(self, seq, attempt):
        record = {"seq": seq, "attempt": attempt, "t0": time.time()}
        sent = False
        try:
            if self.conn is None:
                self.connect()
            record["server"] = self.server
            sent = self.in_flight = True
            try:
                self.insert(seq, attempt, record["t0"])
            finally:
                self.in_flight = False
            record["outcome"] = "ack"
        except Stopped:
            record.update(outcome="in_doubt", error="STOPPED",
                          detail=f"no answer within {STOP_GRACE_S:g} s of the run's stop signal")
            self.drop()
        except self.errors as exc:
            record.update(outcome="in_doubt" if sent and not self.answered(exc) else "failed",
                          error=self.error(exc), detail=str(exc)[:200])
            self.drop()
        record["t1"] = time.time()
        emit(record)
        return record["outcome"] == "ack"


class MysqlWriter(Writer):
    errors = (pymysql.err.MySQLError, OSError)

    def connect(self):
        self.conn = pymysql.connect(host=self.host, port=self.port, user="sbtest", password="sbtest",
                                    connect_timeout=2, read_timeout=self.read_timeout_s, autocommit=True)
        with self.conn.cursor() as cursor:
            if not self.created:       # once: MySQL logs even a no-op CREATE, a transaction semi-sync waits on
                cursor.execute(CREATE)
                self.created = True
            cursor.execute("SELECT @@hostname")
            self.server = cursor.fetchone()[0]

    def insert(self, seq, attempt, t0):
        with self.conn.cursor() as cursor:
            cursor.execute(INSERT, (seq, attempt, t0))

    @staticmethod
    def _code(exc):
        args = getattr(exc, "args", ())
        return args[0] if isinstance(exc, pymysql.err.MySQLError) and args and isinstance(args[0], int) else None

    def answered(self, exc):
        code = self._code(exc)
        return code is not None and code < CLIENT_ERRORS_FROM

    def error(self, exc):
        code = self._code(exc)
        return f"MYSQL_{code}" if code else type(exc).__name__


class PostgresWriter(Writer):
    def __init__(self, host, port, read_timeout_s):
        super().__init__(host, port, read_timeout_s)
        self.pg = importlib.import_module("pg_connection")
        self.errors = (self.pg.Error, OSError)

    def connect(self):
        self.conn = self.pg.PostgresConnection(self.host, self.port, "sbtest", "sbtest", 2, self.read_timeout_s)
        if not self.created:
            self.conn.execute(CREATE_PG)
            self.created = True
        self.server = self.conn.operation()

    def insert(self, seq, attempt, t0):
        self.conn.execute(INSERT_PG, (seq, attempt, t0))

    def answered(self, exc):
        return getattr(exc, "pgcode", None) is not None      # a SQLSTATE: the server's own answer

    def error(self, exc):
        return self.pg.error_name(exc)


def stop_at_eof():
    """With WRITER_STOP_ON_EOF=1 (a run's harness holds stdin open): stdin's end stops the writer
    as SIGINT does, the write in flight given its grace (a run stops it without an exec)."""
    for _ in sys.stdin:
        pass
    os.kill(os.getpid(), signal.SIGINT)


def main():
    host, port, rate, duration_s, attempts = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), \
        int(sys.argv[5])
    read_timeout_s = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0
    proto = sys.argv[7] if len(sys.argv) > 7 else "mysql"
    stopping = []
    writer = (PostgresWriter if proto == "postgres" else MysqlWriter)(host, port, read_timeout_s)

    def stop(*_):
        if not stopping:               # the grace counts from the first stop: a second one (stdin's end, then the signal) changes nothing
            stopping.append(True)
            signal.setitimer(signal.ITIMER_REAL, STOP_GRACE_S)

    def give_up(*_):
        if writer.in_flight:           # PyMySQL's wait and the PostgreSQL writer's select() let it through
            raise Stopped()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop)
    signal.signal(signal.SIGALRM, give_up)
    if os.environ.get("WRITER_STOP_ON_EOF") == "1":
        threading.Thread(target=stop_at_eof, daemon=True, name="stop at stdin's end").start()
    interval = 1.0 / rate
    deadline = time.monotonic() + duration_s
    while writer.conn is None and not stopping and time.monotonic() < deadline:
        try:
            writer.connect()
        except writer.errors:
            time.sleep(0.2)
    next_at, seq = time.monotonic(), 0
    while time.monotonic() < deadline and not stopping:
        seq += 1
        for attempt in range(1, attempts + 1):
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at = max(next_at + interval, time.monotonic())
            if stopping or writer.write(seq, attempt) or time.monotonic() >= deadline:
                break
    signal.setitimer(signal.ITIMER_REAL, 0)
    emit({"end": time.time(), "seqs": seq})


if __name__ == "__main__":
    main()
