#!/usr/bin/env python3
"""slowserver: an HTTP upstream that accepts slowly, with a chosen listen backlog.

One connection at a time: accept, wait --accept-delay-ms, read the request, answer
'<hostname> slow', close. With a small backlog a burst of connections overflows the
accept queue: the kernel then drops SYNs (clients retransmit them at 1 s, 3 s, ...) or,
with net.ipv4.tcp_abort_on_overflow=1, resets the handshake.
"""
import argparse
import socket
import time

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--port", type=int, default=8081)
parser.add_argument("--backlog", type=int, default=128)
parser.add_argument("--accept-delay-ms", type=float, default=200)
args = parser.parse_args()

listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("0.0.0.0", args.port))
listener.listen(args.backlog)
body = f"{socket.gethostname()} slow\n".encode()
response = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body)
while True:
    conn, _ = listener.accept()
    time.sleep(args.accept_delay_ms / 1000)
    conn.settimeout(2)
    try:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = conn.recv(4096)
            if not chunk:
                break
            request += chunk
        if request:
            conn.sendall(response)
    except OSError:
        pass
    finally:
        conn.close()
