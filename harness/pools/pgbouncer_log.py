"""pgbouncer's log (a cell's pool.log): when it closed a server or client connection and why, in
its own words ("closing because: query timeout", "server conn crashed?")."""
import dataclasses
import datetime
import re

from .base import Closing

# 2026-11-29 13:40:01.123 UTC [123] LOG S-0x55d1c0a0: sbtest/sbtest@10.1.0.10:3306 closing because: query timeout (age=5s)
CLOSING = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (\S+) \[\d+\] LOG ([SC])-0x[0-9a-f]+: "
                     r"(\S*) closing because: (.*?)(?: \(age=.*\))?$")


def closings(text: str) -> list[Closing]:
    found = []
    for line in text.splitlines():
        m = CLOSING.match(line.strip())
        if not m or m.group(2) != "UTC":
            continue
        found.append(Closing(_utc(m.group(1)), "server" if m.group(3) == "S" else "client", m.group(4), m.group(5)))
    return found


# 2026-11-29 13:40:00.123 UTC [123] LOG S-0x55d1c0a0: sbtest/sbtest@10.1.0.10:3306 new connection to server (from 10.1.3.128:37700)
SERVER_OPENED = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) UTC \[\d+\] LOG S-0x[0-9a-f]+: "
                           r"\S* new connection to server \(from \S+:(\d+)\)$")


@dataclasses.dataclass(frozen=True)
class ServerOpened:
    t: float                  # its log's clock, to the millisecond
    local_port: int           # the address its kernel's socket has in ss


def server_openings(text: str) -> list[ServerOpened]:
    found = []
    for line in text.splitlines():
        if m := SERVER_OPENED.match(line.strip()):
            found.append(ServerOpened(_utc(m.group(1)), int(m.group(2))))
    return found


def _utc(stamp: str) -> float:
    return datetime.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp()


VERSION = re.compile(r"process up: (PgBouncer [0-9.]+)")


def version(text: str) -> str | None:
    """'PgBouncer 1.18.0' from its start line, or None."""
    m = VERSION.search(text)
    return m.group(1) if m else None
