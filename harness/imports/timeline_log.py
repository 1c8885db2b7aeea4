"""A log excerpt as a timeline: lines as keepalived, HAProxy and the applications' drivers write
them, each beginning with its time (timeline_clock.py's formats; a syslog line's host and program
follow it). The lines the lab knows give the timeline's moments, the first of each kind:
  lb_changed    keepalived's "Removing service ... from VS" (or "Disabling service", inhibit_on_failure),
                HAProxy's "Server <backend>/<server> is DOWN"
  first_error   a driver's error for a lost or timed-out connection: Connector/J's "Communications
                link failure", MySQL's "Lost connection to MySQL server", Go's "invalid connection" or
                "i/o timeout", libpq's "server closed the connection unexpectedly", "Connection timed
                out", ETIMEDOUT, ...
  name_moved    a managed database's failover completed, as Amazon RDS's events say it ("Amazon RDS
                event categories and event messages"): Aurora's and a Multi-AZ cluster's RDS-EVENT-0071
                "Completed failover to DB instance", a Multi-AZ instance's RDS-EVENT-0015 and
                RDS-EVENT-0049, "Multi-AZ instance failover completed": its endpoint's name re-pointed by
                then as far as the event says (RDS-EVENT-0015 adds that the DNS may take minutes more)
  died, recovered, or any moment, from a line the operator marked with the timeline's own word:
                `03:12:04 died`, `2026-03-12T03:28:02Z recovered` (timeline.py's names)
The death itself is in no server's log (the dead server writes nothing): without a marked line the
excerpt is refused, saying what it found (a failover's start, RDS-EVENT-0072, 0073 or 0013, comes
after the death: the service's own checks saw it first) and how to add the death. Each moment is shown with the
line it came from."""
import re

from ..errors import InvalidInput
from . import timeline, timeline_clock

KNOWN = (
    ("lb_changed", re.compile(r"Removing service \S+ from VS|Disabling service \S+ from VS|"
                              r"Server \S+/\S+ is DOWN", re.IGNORECASE)),
    ("name_moved", re.compile(r"RDS-EVENT-00(15|49|71)\b|Completed failover to DB instance|"
                              r"Multi-AZ (instance )?failover (has )?completed|"
                              r"promotion of a standby instance is complete", re.IGNORECASE)),
    ("first_error", re.compile(r"Communications link failure|Lost connection to (MySQL|MariaDB)? ?server|"
                               r"invalid connection|i/o timeout|server closed the connection unexpectedly|"
                               r"Connection timed out|ETIMEDOUT|could not receive data from server|"
                               r"Read timed out|connection reset by peer|ECONNRESET|broken pipe", re.IGNORECASE)),
)


def stamped(line: str) -> tuple[str, str] | None:
    """(time as written, the rest) of a log line that begins with a time, else None."""
    words = line.split()
    for size in (3, 2, 1):
        head = " ".join(words[:size])
        if len(words) >= size and timeline_clock.read(head.rstrip(",:;]").lstrip("[")) is not None:
            return head.rstrip(",:;]").lstrip("["), " ".join(words[size:])
    return None


def looks_like_log(text: str) -> bool:
    """Whether most non-blank lines begin with a time (sniff.py: a log excerpt)."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return len(lines) >= 2 and sum(1 for line in lines if stamped(line)) >= max(2, len(lines) * 0.8)


def parse(text: str, source: str = "incident.log", need_death: bool = True) -> timeline.Timeline:
    found: dict[str, timeline.Entry] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        said = stamped(line)
        if said is None:
            continue
        when, rest = said
        key = _marked(rest) or next((key for key, pattern in KNOWN if pattern.search(rest)), None)
        if key and key not in found:
            found[key] = timeline.Entry(key, _shown(rest), when, number)
    if not found:
        raise InvalidInput(f"{source}: a log excerpt with no line the lab knows (keepalived's \"Removing service\", "
                           "HAProxy's \"is DOWN\", a driver's lost-connection error, or a line marked `<time> died`)")
    if "died" not in found and need_death:
        seen = ", ".join(f"{key} (line {entry.line})" for key, entry in found.items())
        started = _failover_started(text)
        raise InvalidInput(f"{source}: the log shows {seen} but not the death, which no server logs: add a line "
                           "`<time> died` (the time the backend stopped answering) to it" + started)
    if "died" not in found:               # a YAML timeline beside it gives the death (timeline.merged)
        return timeline.Timeline(source, (), tuple(found.values()))
    return timeline.from_entries(list(found.values()), source)


FAILOVER_STARTED = re.compile(r"RDS-EVENT-00(13|72|73)\b|Started (same|cross)[ -]AZ failover|"
                              r"Multi-AZ (instance )?failover started|promotion of a standby instance has started",
                              re.IGNORECASE)


def _failover_started(text: str) -> str:
    """Where a managed database's failover began, said beside the missing death: it came after it."""
    for number, line in enumerate(text.splitlines(), start=1):
        said = stamped(line)
        if said and FAILOVER_STARTED.search(said[1]):
            return (f"; the failover started at {said[0]} (line {number}), after the death its own checks "
                    "had to see first")
    return ""


def _marked(rest: str) -> str | None:
    """The moment a line names by the timeline's own word alone (its message: what follows a syslog
    line's `program:`), else None."""
    words = rest.rsplit(": ", 1)[-1].split()
    return timeline.MEANING.get(timeline.normal(words[0])) if len(words) == 1 else None


def _shown(rest: str) -> str:
    return rest if len(rest) <= 70 else rest[:67] + "..."
