"""sysbench 1.0.20 per-second report lines, as stamped by the client's `stamp` wrapper:
  1795308165.250 [ 1s ] thds: 1 tps: 269.46 qps: ... err/s: 0.00 reconn/s: 0.00
"""
import dataclasses
import re

LINE_RE = re.compile(
    r"^(?P<t>\d+\.\d+) \[ *(?P<second>\d+)s \] thds: (?P<threads>\d+) tps: (?P<tps>[\d.]+) "
    r"qps: (?P<qps>[\d.]+) .*?err/s: (?P<err>[\d.]+) reconn/s: (?P<reconn>[\d.]+)")


@dataclasses.dataclass(frozen=True)
class Report:
    t: float            # wall clock when the line was printed (end of its second)
    second: int
    tps: float
    qps: float
    err_per_s: float
    reconn_per_s: float


def parse(text: str) -> list[Report]:
    """Every report line of a stamped sysbench log; other lines are skipped."""
    reports = []
    for line in text.splitlines():
        m = LINE_RE.match(line)
        if m:
            reports.append(Report(float(m["t"]), int(m["second"]), float(m["tps"]), float(m["qps"]),
                                  float(m["err"]), float(m["reconn"])))
    return reports


def crashed(text: str) -> bool:
    """sysbench died of a signal of its own (the unpatched reconnect segfault: SIGSEGV),
    as the client's `stamp` wrapper records it; being stopped by the harness is not a crash."""
    return any(f"[stamp] killed by {name}" in text for name in ("SIGSEGV", "SIGABRT", "SIGBUS"))


def socket_options(text: str) -> dict[str, int]:
    """The options the kernel reported back on sysbench's sockets: {'TCP_USER_TIMEOUT': 5000, ...}
    from libsockopts' SOCKOPT_VERBOSE lines
    ('libsockopts: fd 7: TCP_USER_TIMEOUT=5000 (kernel reads back 5000)')."""
    applied: dict[str, int] = {}
    for m in re.finditer(r"libsockopts: fd \d+: (\w+)=\d+ \(kernel reads back (-?\d+)\)", text):
        applied[m.group(1)] = int(m.group(2))
    return applied
