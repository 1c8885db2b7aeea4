"""The probe on PostgreSQL (--proto postgres) calls libpq itself (images/client/libpq.py), here the
host's own libpq5 against two local listeners that accept a connection and never answer (a server
whose host went silent after the handshake, as far as libpq can tell). libpq's documentation of
connect_timeout: "This timeout applies separately to each host name or IP address"; so a list of
two silent hosts fails after twice the timeout, and the probe names both addresses, in order."""
import json
import socket
import subprocess
import sys

from harness.lab import REPO

PROBE = REPO / "images" / "client" / "probe.py"
CONNECT_TIMEOUT_S = 2
# Each silent host is tried for the timeout: at least 2 x 2 s, and less than a third try would take.
# Measured on this machine, 2026-12-06: 4.02-4.05 s idle (five tries), 4.57 s beside make test's
# four lab workers, 5.38 s at nice 19 beside them (the first bound, 2 x 2 + 0.5 s, failed both).
TRIES_S = (2 * CONNECT_TIMEOUT_S, 3 * CONNECT_TIMEOUT_S)


def silent_listener(address):
    server = socket.socket()
    server.bind((address, 0))
    server.listen(4)                # the kernel accepts; nobody reads the startup packet
    return server


def test_a_host_list_tries_each_silent_host_for_its_connect_timeout_and_names_both():
    first, second = silent_listener("127.0.0.1"), silent_listener("127.0.0.2")
    port = first.getsockname()[1]
    second.close()
    second = socket.socket()
    second.bind(("127.0.0.2", port))
    second.listen(4)
    try:
        result = subprocess.run([sys.executable, str(PROBE), "--proto", "postgres", "--host", "127.0.0.1,127.0.0.2",
                                 "--port", str(port), "--connect-timeout-s", str(CONNECT_TIMEOUT_S),
                                 "--max-operations", "1", "--duration-s", "30"],
                                capture_output=True, text=True, timeout=30)
    finally:
        first.close()
        second.close()
    [failed] = [json.loads(line) for line in result.stdout.splitlines()]
    assert failed["ok"] is False and failed["address"] == "127.0.0.1, 127.0.0.2", failed
    assert failed["error"] == "PG_CONNECT_TIMEOUT" and "timeout expired" in failed["detail"], failed
    took = failed["t1"] - failed["connect_t"]
    assert TRIES_S[0] <= took < TRIES_S[1], failed


def test_a_fractional_connect_timeout_is_refused_by_libpq_itself():
    result = subprocess.run([sys.executable, str(PROBE), "--proto", "postgres", "--host", "127.0.0.1,127.0.0.2",
                             "--port", "9", "--connect-timeout-s", "2.5", "--max-operations", "1"],
                            capture_output=True, text=True, timeout=30)
    [failed] = [json.loads(line) for line in result.stdout.splitlines()]
    assert 'invalid integer value "2.5" for connection option "connect_timeout"' in failed["detail"], failed
