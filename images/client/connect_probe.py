#!/usr/bin/env python3
"""connect-probe ADDRESS PORT RATE_PER_S DURATION_S TIMEOUT_S [MAX_IN_FLIGHT]

Connection-setup latency: a TCP connect() every 1/RATE s for DURATION_S, each timed from the
call (the SYN goes out) to the connection being established (the SYN-ACK came back), then
reset at once (SO_LINGER 0: no data, no TIME_WAIT). Connects overlap: one goes out every
interval whatever the earlier ones are doing, at most MAX_IN_FLIGHT at once (beyond that the
tick is recorded as skipped). One JSON line per connect:
  {"t0": wall clock of the call, "s": seconds to established (null: it failed),
   "err": errno name or "TIMEOUT" (TIMEOUT_S passed), "syn_retrans": SYNs the kernel resent}
and, last, {"end": t, "sent": n, "skipped": n, "cpu_s": its own CPU time}. Ends at DURATION_S or on SIGINT/SIGTERM.
It may start while the servers are still starting: its clock starts once a first connect was
accepted (tried every WAIT_RETRY_S, for at most DURATION_S), and the connects refused until then
are not recorded, like the probe's before its first answer."""
import errno
import json
import resource
import selectors
import signal
import socket
import struct
import sys
import time

TCP_INFO_LEN = 104
WAIT_RETRY_S = 0.2             # how often it tries a first connect while the servers start
RETRANSMITS_AT = 2            # struct tcp_info: __u8 tcpi_retransmits (the running count)
TOTAL_RETRANS_AT = 100        # __u32 tcpi_total_retrans (kept once established)


def syn_retransmissions(sock):
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_LEN)
    if len(info) < TOTAL_RETRANS_AT + 4:
        return info[RETRANSMITS_AT]
    return max(info[RETRANSMITS_AT], struct.unpack_from("I", info, TOTAL_RETRANS_AT)[0])


class Prober:
    def __init__(self, address, port, timeout_s, max_in_flight, out):
        self.target, self.timeout_s, self.max_in_flight, self.out = (address, port), timeout_s, max_in_flight, out
        self.selector = selectors.DefaultSelector()
        self.in_flight = {}             # socket -> (wall-clock start, monotonic start)
        self.sent = self.skipped = 0

    def start_one(self):
        if len(self.in_flight) >= self.max_in_flight:
            self.skipped += 1
            return
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        started = (time.time(), time.monotonic())
        code = sock.connect_ex(self.target)
        self.sent += 1
        if code not in (0, errno.EINPROGRESS):
            self.finish(sock, started, None, errno.errorcode.get(code, str(code)))
            return
        self.in_flight[sock] = started
        self.selector.register(sock, selectors.EVENT_WRITE)

    def finish(self, sock, started, seconds, error):
        record = {"t0": round(started[0], 4), "s": None if seconds is None else round(seconds, 5),
                  "syn_retrans": syn_retransmissions(sock)}
        if error:
            record["err"] = error
        self.out.write(json.dumps(record) + "\n")
        if sock in self.in_flight:
            self.selector.unregister(sock)
            del self.in_flight[sock]
        sock.close()

    def settle(self, wait_s):
        for key, _ in self.selector.select(max(wait_s, 0)):
            sock = key.fileobj
            code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            started = self.in_flight[sock]
            elapsed = time.monotonic() - started[1]
            self.finish(sock, started, elapsed if code == 0 else None, errno.errorcode.get(code) if code else None)
        now = time.monotonic()
        for sock, started in list(self.in_flight.items()):
            if now - started[1] >= self.timeout_s:
                self.finish(sock, started, None, "TIMEOUT")


def first_connect_accepted(target, limit_s, stopping):
    """Whether a connect to target was accepted within limit_s (each tried for at most 1 s)."""
    deadline = time.monotonic() + limit_s
    while not stopping and time.monotonic() < deadline:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(1.0)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            try:
                sock.connect(target)
                return True
            except OSError:
                pass
        time.sleep(WAIT_RETRY_S)
    return False


def main():
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__.splitlines()[0])
    address, port, rate, duration_s, timeout_s = (sys.argv[1], int(sys.argv[2]), float(sys.argv[3]),
                                                  float(sys.argv[4]), float(sys.argv[5]))
    max_in_flight = int(sys.argv[6]) if len(sys.argv) == 7 else 1000
    if rate <= 0 or duration_s <= 0 or timeout_s <= 0:
        sys.exit("connect-probe: RATE_PER_S, DURATION_S and TIMEOUT_S must be positive")
    stopping = []
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stopping.append(True))
    prober = Prober(address, port, timeout_s, max_in_flight, sys.stdout)
    accepted = first_connect_accepted((address, port), duration_s, stopping)
    interval, begun = 1.0 / rate, time.monotonic()
    next_tick, last_flush = begun, begun
    while accepted and not stopping and time.monotonic() - begun < duration_s:
        now = time.monotonic()
        if now >= next_tick:
            prober.start_one()
            next_tick += interval
            if next_tick < now:             # fell behind (a stalled machine): no catch-up burst
                prober.skipped += int((now - next_tick) / interval)
                next_tick = now + interval
        prober.settle(min(next_tick - time.monotonic(), 0.05))
        if time.monotonic() - last_flush >= 0.25:
            sys.stdout.flush()
            last_flush = time.monotonic()
    for sock, started in list(prober.in_flight.items()):
        prober.finish(sock, started, None, "STOPPED")
    used = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"end": round(time.time(), 4), "sent": prober.sent, "skipped": prober.skipped,
                      "cpu_s": round(used.ru_utime + used.ru_stime, 3)}), flush=True)


if __name__ == "__main__":
    main()
