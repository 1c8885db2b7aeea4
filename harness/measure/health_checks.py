"""What a director's keepalived log says its health checks did (docker logs --timestamps):
failed checks (keepalived logs those of a server it still had in), and each real server's
removals and returns per virtual server, so its flaps and its time out of rotation; and what
the director kernel's SYN schedule gave a check within its connect timeout.

keepalived 2.2.7 (Debian 12) writes 'TCP_CHECK on service [rs]:tcp:P failed.' (older ones 'TCP
connection to [rs]:tcp:P timeout.'), then 'Removing service [rs]:tcp:P from VS [vip]:tcp:Q' and,
once a check succeeds, 'TCP connection to [rs]:tcp:P success.' and 'Adding service [rs]:tcp:P to
VS [vip]:tcp:Q'."""
import dataclasses
import datetime
import re
from collections.abc import Iterable, Mapping
from typing import Literal, NotRequired, TypedDict

SERVER = r"\[(?P<{0}>[0-9.]+)\]:tcp:(?P<{0}_port>\d+)"
FAILED_RE = re.compile(r"(?:TCP connection to|TCP_CHECK on service) " + SERVER.format("rs") + r" (?:timeout|failed)")
MOVE_RE = re.compile(r"(?P<how>Removing|Adding) service " + SERVER.format("rs") + r" (?:from|to) VS "
                     + SERVER.format("vs"))
STAMP_RE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z ")
SYN_COUNTS_RE = re.compile(r"syn-limit dropped (\d+) passed (\d+)")


Period = Literal["before", "during", "after"]
PERIODS: tuple[Period, ...] = ("before", "during", "after")    # of a run: the fault splits it, its heal too


class ServerChecks(TypedDict):
    """One real server's checks within a period (summarize())."""
    failed_checks: int
    flaps: int
    virtual_servers_hit: int
    out_s: float                     # time out of rotation


class DirectorChecks(TypedDict):
    """A director's health checks (ControlPlane.health_checks()): its settings, the SYNs a check
    gets within its connect timeout, and per period each real server's checks."""
    check: str
    retry: int
    virtual_services: int
    delay_loop_s: float
    syns_per_check: int
    connect_timeout_s: float
    syn_retransmitted_at_s: list[float]
    tcp_syn_retries: int
    tcp_syn_linear_timeouts: int
    before: NotRequired[dict[str, ServerChecks]]
    during: NotRequired[dict[str, ServerChecks]]
    after: NotRequired[dict[str, ServerChecks]]


def stamp(line: str) -> float | None:
    """Docker's own time at the head of a line of `docker logs --timestamps`, or None."""
    m = STAMP_RE.match(line)
    if not m:
        return None
    whole = datetime.datetime.fromisoformat(m.group(1)).replace(tzinfo=datetime.timezone.utc).timestamp()
    return whole + float("0." + (m.group(2) or "0"))


@dataclasses.dataclass
class RealServer:
    """One real server of one virtual server, as one director's checker saw it."""
    failed: list[float] = dataclasses.field(default_factory=list)     # times of failed checks it logged
    out: list[tuple[float, float | None]] = dataclasses.field(default_factory=list)   # [(removed t, back t or None)]


def parse(text: str) -> dict[tuple[str, str | None], RealServer]:
    """{(real server 'a:p', virtual server 'a:p'): RealServer}; failed checks are logged per real
    server and counted against each of its virtual servers' entries by the checker that logs them
    (keepalived names only the real server), so they are kept under (rs, None)."""
    servers: dict[tuple[str, str | None], RealServer] = {}
    for line in text.splitlines():
        t = stamp(line)
        if t is None:
            continue
        failed = FAILED_RE.search(line)
        if failed:
            servers.setdefault((f"{failed['rs']}:{failed['rs_port']}", None), RealServer()).failed.append(t)
            continue
        move = MOVE_RE.search(line)
        if not move:
            continue
        entry = servers.setdefault((f"{move['rs']}:{move['rs_port']}", f"{move['vs']}:{move['vs_port']}"), RealServer())
        if move["how"] == "Removing":
            entry.out.append((t, None))
        elif entry.out and entry.out[-1][1] is None:
            entry.out[-1] = (entry.out[-1][0], t)
    return servers


def in_period(t: float, start: float, end: float | None) -> bool:
    return start <= t and (end is None or t < end)


def summarize(servers: Mapping[tuple[str, str | None], RealServer], start: float, end: float | None,
              run_end: float) -> dict[str, ServerChecks]:
    """Per real server, within [start, end): checks that failed, flaps (removals), virtual servers
    that lost it, and the seconds it spent out of rotation summed over its virtual servers (an
    outage still open at run_end counted to run_end)."""
    result: dict[str, ServerChecks] = {}
    for (rs, vs), entry in servers.items():
        mine = result.setdefault(rs, {"failed_checks": 0, "flaps": 0, "virtual_servers_hit": 0, "out_s": 0.0})
        if vs is None:
            mine["failed_checks"] += sum(in_period(t, start, end) for t in entry.failed)
            continue
        removals = [(gone, back) for gone, back in entry.out if in_period(gone, start, end)]
        mine["flaps"] += len(removals)
        mine["virtual_servers_hit"] += bool(removals)
        mine["out_s"] = round(mine["out_s"] + sum((back or run_end) - gone for gone, back in removals), 3)
    return result


def syn_chances(connect_timeout_s: float, retransmitted_at_s: Iterable[float]) -> int:
    """SYNs a check's connect sends before connect_timeout: the first, and each retransmission the
    director's kernel sends before then. A check fails only if every one of them is dropped."""
    return 1 + sum(t < connect_timeout_s for t in retransmitted_at_s)


def syn_counts(log_text: str) -> tuple[int, int] | None:
    """(dropped, passed) SYNs the backend's limit counted (faults/syn_limit.py), or None."""
    m = SYN_COUNTS_RE.search(log_text)
    return (int(m.group(1)), int(m.group(2))) if m else None
