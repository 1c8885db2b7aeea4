#!/usr/bin/env python3
"""burst: open N new connections at once and time each one; a JSON line per connection.

  {"t0": start, "connect_s": seconds until connect() returned (None if it failed),
   "total_s": until the answer (or the error), "ok": bool, "status": HTTP status,
   "error": errno name, "conn": i}
connect() waits for the kernel: SYN retransmissions (1 s, 3 s, 7 s, ...) up to
net.ipv4.tcp_syn_retries show up as steps in connect_s.
"""
import argparse
import errno
import json
import socket
import sys
import threading
import time

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--host", required=True)
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--connections", type=int, default=20)
parser.add_argument("--path", default="/", help="HTTP path to request once connected")
parser.add_argument("--timeout-s", type=float, default=60, help="bound on each connection's whole life")
args = parser.parse_args()
if not 0 < args.connections <= 500:
    sys.exit("burst: --connections must be 1..500")
lock = threading.Lock()


def emit(record):
    with lock:
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()


def one(i):
    t0 = time.time()
    record = {"t0": t0, "conn": i, "connect_s": None, "ok": False, "status": None, "error": None}
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(args.timeout_s)
    try:
        sock.connect((args.host, args.port))
        record["connect_s"] = round(time.time() - t0, 4)
        sock.sendall(f"GET {args.path} HTTP/1.1\r\nHost: vip\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        status = answer.split(b" ", 2)[1] if answer.startswith(b"HTTP/") else None
        record["status"] = int(status) if status and status.isdigit() else None
        record["ok"] = record["status"] == 200
        if not answer:
            record["error"] = "EOF"
    except OSError as exc:
        # The kernel's ETIMEDOUT (SYN retries spent) has an errno; burst's own time limit does not.
        record["error"] = errno.errorcode.get(exc.errno) or ("TIMEOUT" if isinstance(exc, socket.timeout)
                                                             else type(exc).__name__)
    finally:
        sock.close()
    record["total_s"] = round(time.time() - t0, 4)
    emit(record)


threads = [threading.Thread(target=one, args=(i,)) for i in range(args.connections)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
