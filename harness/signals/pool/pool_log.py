"""pgbouncer's log (a cell's pool.log): when it closed a server or client connection and why, in
its own words ("closing because: query timeout", "server conn crashed?")."""
import dataclasses
import datetime
import re

# 2026-11-29 13:40:01.123 UTC [123] LOG S-0x55d1c0a0: sbtest/sbtest@10.1.0.10:3306 closing because: query timeout (age=5s)
CLOSING = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (\S+) \[\d+\] LOG ([SC])-0x[0-9a-f]+: "
                     r"(\S*) closing because: (.*?)(?: \(age=.*\))?$")


@dataclasses.dataclass(frozen=True)
class Closing:
    t: float                  # its log's clock, to the millisecond
    side: str                 # "server" (pgbouncer's leg to the database) or "client"
    peer: str                 # db/user@address:port
    reason: str


def closings(text):
    found = []
    for line in text.splitlines():
        m = CLOSING.match(line.strip())
        if not m or m.group(2) != "UTC":
            continue
        t = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc)
        found.append(Closing(t.timestamp(), "server" if m.group(3) == "S" else "client", m.group(4), m.group(5)))
    return found


def first_after(found, side, t):
    return next((c for c in found if c.side == side and c.t >= t), None)


VERSION = re.compile(r"process up: (PgBouncer [0-9.]+)")


def version(text):
    """'PgBouncer 1.18.0' from its start line, or None."""
    m = VERSION.search(text)
    return m.group(1) if m else None
