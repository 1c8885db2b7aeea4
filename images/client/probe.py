#!/usr/bin/env python3
"""A long-lived client: one connection, one small operation every interval.

Writes one JSON line per operation to stdout:
  {"t0": wall-clock start, "t1": end, "ok": bool, "server": who answered,
   "error": errno name or MySQL code, "conn": connection number}
On an error it reconnects (like sysbench with --mysql-ignore-errors=all) and goes on.
On every connect it prints {"connected": t, "conn": n, "sockopts": {...}}: the TCP options
the kernel holds for the socket (set by libsockopts from SOCKOPT_* when preloaded). With
--proto postgres, --host may list hosts (a,b): libpq tries them in order, and the record names the
host it reached ("host").
With --start-on-stdin it connects, prints {"ready": ...} and waits for a line on stdin
before the first timed operation, so a harness can act between the two.
With --idle-s D it stops sending when a line "idle" arrives on stdin and, for D seconds, only
waits for the socket to turn readable (an error such as a keepalive timeout), printing
{"idle_start": t} and an operation record if the socket dies while idle.
With --first-connect-s S, until its first answer a failed connect is no operation: it prints
{"waiting": t, "error": ...} and retries every interval, for up to S s (the servers may still be
starting when a harness starts its probes).
With --settle-ops N the first N operations of the first connection come --settle-interval-ms
apart (RTT samples, so the connection's RTO settles quickly), then one every interval, the first
of those --phase-ms later.
With --stop-on-eof it stops when its stdin is closed (between operations; a signal still works).
With --group it runs many probes, one per cell, from one process (run_group); a cell may name
a network namespace (a file) its probe enters before it connects.
"""
import argparse
import errno
import importlib
import json
import select
import socket
import sys
import time

SOCKOPTS = {
    "tcp_user_timeout_ms": (socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT),
    "keepalive": (socket.SOL_SOCKET, socket.SO_KEEPALIVE),
    "keepidle_s": (socket.IPPROTO_TCP, socket.TCP_KEEPIDLE),
    "keepintvl_s": (socket.IPPROTO_TCP, socket.TCP_KEEPINTVL),
    "keepcnt": (socket.IPPROTO_TCP, socket.TCP_KEEPCNT),
}


def error_name(exc):
    """errno name of a kernel error (ETIMEDOUT, ECONNRESET, ...); TIMEOUT for the probe's own
    read timeout (socket.timeout is TimeoutError, which the kernel's ETIMEDOUT raises too: the
    errno tells them apart); MYSQL_<code> for a MySQL client error; PostgreSQL's, pg_connection's."""
    if ARGS.proto == "postgres":
        return importlib.import_module("pg_connection").error_name(exc)
    code = getattr(exc, "errno", None)
    if code in errno.errorcode:
        return errno.errorcode[code]
    if isinstance(exc, socket.timeout):
        return "TIMEOUT"
    if getattr(exc, "args", None) and isinstance(exc.args[0], int):
        return f"MYSQL_{exc.args[0]}"
    return type(exc).__name__


FLUSH_EVERY_S = 0.5        # operation records are flushed at most this often (one stream write, not ten)
last_flush = 0.0


def emit(record, at_once=True):
    """One JSON line; operations are batched (at_once=False), everything else is flushed at once."""
    global last_flush
    sys.stdout.write(json.dumps(record) + "\n")
    now = time.monotonic()
    if at_once or now - last_flush >= FLUSH_EVERY_S:
        sys.stdout.flush()
        last_flush = now


connecting_to = None       # the address the latest connect went to (--host resolved, once per connect;
                           # of a libpq host list, the address libpq reached)
resolved_t = None          # when that lookup returned: the connect itself began then (a host list's: the walk)


def resolve(host):
    """The address a connect to host goes to: host itself when it is one, else the first IPv4 address
    glibc's resolver gives (no cache here: every connect asks again, as glibc does)."""
    try:
        socket.inet_aton(host)
        return host
    except OSError:
        return socket.getaddrinfo(host, ARGS.port, socket.AF_INET, socket.SOCK_STREAM)[0][4][0]


def connect(number):
    global connecting_to, resolved_t
    read_timeout = ARGS.read_timeout_s or None
    connect_timeout = ARGS.connect_timeout_s or None       # 0: none, the kernel's SYN retries decide
    connecting_to = resolved_t = None
    if ARGS.proto == "postgres" and "," in ARGS.host:       # libpq's host list: libpq resolves each host in turn
        resolved_t = time.time()
        conn = importlib.import_module("pg_connection").PostgresConnection(
            ARGS.host, ARGS.port, ARGS.user, ARGS.password, connect_timeout, read_timeout, ARGS.target_session_attrs)
        connecting_to = conn.hostaddr
        return conn
    connecting_to = address = resolve(ARGS.host)
    resolved_t = time.time()
    if ARGS.proto == "postgres":
        return importlib.import_module("pg_connection").PostgresConnection(
            address, ARGS.port, ARGS.user, ARGS.password, connect_timeout, read_timeout, ARGS.target_session_attrs)
    connections = importlib.import_module("probe_connections")
    if ARGS.proto == "mysql":
        return connections.MysqlConnection(address, ARGS.port, ARGS.user, ARGS.password, connect_timeout,
                                           read_timeout)
    return connections.HttpConnection(address, ARGS.port, connect_timeout, read_timeout)


def sockopts(conn):
    sock = socket.socket(fileno=conn.fileno())
    try:
        return {name: sock.getsockopt(level, option) for name, (level, option) in SOCKOPTS.items()}
    finally:
        sock.detach()


def tried(exc):
    """The addresses a failed libpq host-list connect tried (pg_connection.tried_addresses)."""
    return importlib.import_module("pg_connection").tried_addresses(exc) if ARGS.proto == "postgres" else None


def local_port(conn):
    sock = socket.socket(fileno=conn.fileno())
    try:
        return sock.getsockname()[1]
    finally:
        sock.detach()


def wait_idle(conn, number):
    """Send nothing for --idle-s; report if the socket dies meanwhile. Returns the connection or None."""
    t0 = time.time()
    emit({"idle_start": t0, "conn": number})
    readable, _, _ = select.select([conn.fileno()], [], [], ARGS.idle_s)
    if not readable:
        emit({"idle_end": time.time(), "conn": number})
        return conn
    sock = socket.socket(fileno=conn.fileno())
    try:
        error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        name = errno.errorcode.get(error, "EOF") if error else "EOF"
    finally:
        sock.detach()
    emit({"t0": t0, "t1": time.time(), "ok": False, "error": name, "conn": number, "idle": True})
    conn.close()
    return None


told = []                  # lines read from stdin while resting (--stop-on-eof)


def told_to_idle():
    """A line 'idle' is waiting on stdin (the harness says when, relative to its fault)."""
    if ARGS.stop_on_eof:
        return bool(told) and told.pop(0) == "idle"
    readable, _, _ = select.select([sys.stdin], [], [], 0)
    return bool(readable) and sys.stdin.readline().strip() == "idle"


def rest(seconds):
    """Wait out the rest of an interval; False when the probe is to stop. With --stop-on-eof it
    listens to stdin meanwhile: a closed stdin stops it, a line is kept for told_to_idle."""
    if not ARGS.stop_on_eof:
        time.sleep(seconds)
        return True
    readable, _, _ = select.select([sys.stdin], [], [], seconds)
    if not readable:
        return True
    line = sys.stdin.readline()
    if not line:
        return False
    told.append(line.strip())
    return True


def rest_of_interval(t0, interval_ms=None):
    return rest(max(0.0, (interval_ms or ARGS.interval_ms) / 1000 - (time.time() - t0)))


def interval_after(operations, number):
    """The first --settle-ops operations of the first connection come --settle-interval-ms apart:
    each answer is an RTT sample and srtt moves 1/8 of the way to it, so the RTO the kernel arms
    settles within those samples, not within seconds of the normal interval. The first interval
    after them is --phase-ms longer: probes started together then do not tick together."""
    if number == 1 and operations < ARGS.settle_ops:
        return ARGS.settle_interval_ms
    if number == 1 and operations == max(ARGS.settle_ops, 1):
        return ARGS.interval_ms + ARGS.phase_ms
    return ARGS.interval_ms


def main():
    started = time.monotonic()
    deadline = started + ARGS.duration_s
    number = 0
    conn = None
    operations = 0
    idled = ARGS.idle_s <= 0
    answered = False           # on this connection: its first answer goes out at once (ready, recovered)
    ever_answered = False
    while time.monotonic() < deadline and operations < ARGS.max_operations:
        if not idled and conn is not None and told_to_idle():
            idled = True
            conn = wait_idle(conn, number)
        t0 = time.time()
        try:
            if conn is None:
                number += 1
                conn, answered = connect(number), False
                emit({"connected": time.time(), "conn": number, "sockopts": sockopts(conn),
                      "local_port": local_port(conn), "address": connecting_to, "connect_t": resolved_t,
                      **({"host": conn.host} if "," in ARGS.host else {})})
                if ARGS.start_on_stdin and number == 1:
                    emit({"ready": time.time(), "server": conn.operation(), "conn": number})
                    sys.stdin.readline()
                    t0 = time.time()
            server = conn.operation()
            emit({"t0": t0, "t1": time.time(), "ok": True, "server": server, "conn": number}, at_once=not answered)
            answered = ever_answered = True
        except Exception as exc:  # every failure is data here, but those of servers still starting
            if conn is None and not ever_answered and time.monotonic() - started < ARGS.first_connect_s:
                number -= 1
                emit({"waiting": time.time(), "error": error_name(exc)}, at_once=False)
                if rest_of_interval(t0):
                    continue
                break
            failed = {"t0": t0, "t1": time.time(), "ok": False, "error": error_name(exc), "conn": number,
                      "detail": str(exc)[:200]}
            if conn is None:              # a connect that failed: where it went (None: the name did not resolve)
                failed["address"], failed["connect_t"] = connecting_to or tried(exc), resolved_t
            emit(failed)
            if conn is not None:
                conn.close()
                conn = None
            if ARGS.exit_on_error:
                return
        operations += 1
        if not rest_of_interval(t0, interval_after(operations, number)):
            break
    sys.stdout.flush()


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--proto", choices=["mysql", "postgres", "http"], required=True)
parser.add_argument("--host", required=True)
parser.add_argument("--port", type=int)
parser.add_argument("--user", default="sbtest")
parser.add_argument("--password", default="sbtest")
parser.add_argument("--interval-ms", type=float, default=100)
parser.add_argument("--duration-s", type=float, default=60)
parser.add_argument("--max-operations", type=int, default=100000)
parser.add_argument("--settle-ops", type=int, default=0,
                    help="the first connection's first this many operations come --settle-interval-ms apart")
parser.add_argument("--settle-interval-ms", type=float, default=10)
parser.add_argument("--phase-ms", type=float, default=0,
                    help="the first interval after the settling ones is this much longer (spreads probes' ticks)")
parser.add_argument("--read-timeout-s", type=float, default=0, help="0: wait for the kernel")
parser.add_argument("--connect-timeout-s", type=float, default=5, help="0: none (the kernel's SYN retries decide)")
parser.add_argument("--target-session-attrs", help="postgres: libpq's target_session_attrs (unset: libpq's any)")
parser.add_argument("--stop-on-eof", action="store_true", help="stop when stdin is closed")
parser.add_argument("--first-connect-s", type=float, default=0,
                    help="until the first answer, failed connects are retried this long as 'waiting', not operations")
parser.add_argument("--start-on-stdin", action="store_true")
parser.add_argument("--exit-on-error", action="store_true")
parser.add_argument("--idle-s", type=float, default=0,
                    help="when 'idle' arrives on stdin, stay idle this long (0: never idle)")


def parse_args(argv):
    args = parser.parse_args(argv)
    if args.port is None:
        args.port = 80 if args.proto == "http" else 3306
    return args


def preload(argvs):
    """The database modules the group's probes use, imported before it forks them."""
    protos = {parse_args(argv).proto for argv in argvs}
    for proto, module in (("mysql", "pymysql"), ("postgres", "pg_connection")):
        if proto in protos:
            importlib.import_module(module)


def run_probe(argv):
    global ARGS
    ARGS = parse_args(argv)
    main()


if __name__ == "__main__":
    if sys.argv[1:] == ["--group"]:
        import probe_group
        probe_group.run_group(preload, run_probe)
    else:
        ARGS = parse_args(sys.argv[1:])
        main()
