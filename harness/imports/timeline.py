"""incident.yaml: the operator's timeline, set beside the model's figures (and a replay's).

  died: "03:12:00"            # when the backend died (or the change began)
  lb_changed: "03:13:05"      # when the load balancer took it out (optional)
  first_error: "03:28:10"     # the application's first error (optional)
  recovered: "03:28:40"       # when it worked again
  name_moved: "03:12:31"      # a managed database's failover: when its name was re-pointed (optional)
Times as logs write them (timeline_clock.py: ISO 8601 with a date and zone, syslog's, a time of
day), or seconds after the death (`recovered: 940`). The keys operators write for the same moments
(`backend_died`, `lb_removed_backend`, `app_first_error`, `app_recovered`, ...) are read as these;
any other key is refused at its line, with the nearest key when one is near. A change before the
death, or a recovery before the first error, is refused at its line."""
import dataclasses
import difflib
import re
from collections.abc import Iterable, Mapping

import yaml

from ..errors import InvalidInput
from . import timeline_clock

KEYS = ("died", "lb_changed", "first_error", "recovered", "name_moved")
# Only names that can mean one moment: `failover` (the VIP moved, or a replica promoted?), `promoted`
# (the database's change, not the load balancer's), `haproxy_down` (the proxy itself), `alert` and
# `resolved` (a page's times, not the application's) are refused with these offered instead.
ALIASES = {
    "died": ("died", "death", "dead", "backend_died", "backend_dead", "backend_down", "primary_died", "primary_down",
             "server_died", "server_down", "db_died", "db_down", "database_died", "database_down", "master_died",
             "crashed", "outage_start", "incident_start"),
    "lb_changed": ("lb_changed", "lb_change", "lb_removed", "lb_removed_backend", "lb_noticed", "lb_failover",
                   "backend_removed", "server_removed", "director_changed", "keepalived_removed", "vip_moved"),
    "first_error": ("first_error", "app_first_error", "application_first_error", "first_failure", "errors_began",
                    "errors_started", "app_errors_began", "app_error"),
    "recovered": ("recovered", "app_recovered", "application_recovered", "recovery", "app_back",
                  "restored", "worked_again", "errors_stopped", "outage_end"),
    "name_moved": ("name_moved", "dns_moved", "dns_changed", "dns_updated", "dns_flipped", "endpoint_moved",
                   "cname_changed", "cname_updated", "record_changed"),
}
MEANING = {alias: key for key, aliases in ALIASES.items() for alias in aliases}
WORDS = {"lb_changed": "the load balancer changed", "first_error": "the application's first error",
         "recovered": "the application worked again",
         "name_moved": "the database's name re-pointed at the promoted server"}


@dataclasses.dataclass(frozen=True)
class Entry:
    key: str              # the timeline's own: one of KEYS
    written: str          # the key as the operator wrote it
    value: str
    line: int
    source: str | None = None    # the file it came from, where a timeline is read from two (a YAML one and a log)


@dataclasses.dataclass(frozen=True)
class Timeline:
    source: str
    after_death_s: tuple[tuple[str, float], ...] = ()   # ((key, seconds after `died`), ...)
    entries: tuple[Entry, ...] = ()      # of every key read, `died` first

    def get(self, key: str) -> float | None:
        return dict(self.after_death_s).get(key)

    def lines(self) -> list[str]:
        said = {entry.key: entry for entry in self.entries}
        out = []
        for key, seconds in self.after_death_s:
            entry = said.get(key)
            where = (f"{entry.source or self.source}:{entry.line}: {entry.written}: {entry.value}: " if entry
                     else f"{self.source}: ")
            out.append(f"{where}{WORDS[key]} {seconds:.0f} s after the death")
        return out


def parse(text: str, source: str = "incident.yaml") -> Timeline:
    return from_entries(_entries(text, source), source)


def merged(written: Timeline, logged: Timeline) -> Timeline:
    """One Timeline of a YAML timeline and a log excerpt's (timeline_log.py): the YAML's moments, and
    the log's for the moments the YAML does not give."""
    have = {entry.key for entry in written.entries}
    entries = [dataclasses.replace(e, source=written.source) for e in written.entries]
    entries += [dataclasses.replace(e, source=logged.source) for e in logged.entries if e.key not in have]
    return from_entries(entries, written.source)


def from_entries(entries: Iterable[Entry], source: str) -> Timeline:
    """The Timeline of its entries (a YAML timeline's, or a log excerpt's: timeline_log.py)."""
    by_key: dict[str, Entry] = {}
    for entry in entries:
        if entry.key in by_key:
            first = by_key[entry.key]
            raise InvalidInput(f"{source}:{entry.line}: {entry.written}: the same moment as `{first.written}` at line "
                               f"{first.line} (both are the timeline's `{entry.key}`): keep one")
        by_key[entry.key] = entry
    if "died" not in by_key:
        raise InvalidInput(f"{source}: no time of the death: a line `died: 03:12:04` (or backend_died:, ...); "
                           f"the others are optional: {', '.join(KEYS[1:])}")
    died = by_key["died"]
    death = _moment(died, source)
    found = [(key, _after(by_key[key], death, source)) for key in KEYS[1:] if key in by_key]
    _in_order(dict(found), by_key, source)
    return Timeline(source, tuple(found), tuple(by_key[key] for key in KEYS if key in by_key))


def _entries(text: str, source: str) -> list[Entry]:
    try:
        root = yaml.compose(text, Loader=yaml.BaseLoader)    # every value a string: YAML 1.1 reads 03:12:00 as 11520
    except yaml.YAMLError as exc:
        raise InvalidInput(f"{source}: not valid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(root, yaml.MappingNode):
        raise InvalidInput(f"{source}: a mapping of moments to times, e.g. `died: 03:12:04` and "
                           f"`recovered: 03:28:40`, one per line")
    entries = []
    for key_node, value_node in root.value:
        line = key_node.start_mark.line + 1
        written = str(key_node.value)
        key = MEANING.get(normal(written))
        if not isinstance(key_node, yaml.ScalarNode) or key is None:
            raise InvalidInput(f"{source}:{line}: {written}: not a moment the timeline knows{_did_you_mean(written)}")
        if not isinstance(value_node, yaml.ScalarNode) or not value_node.value.strip():
            raise InvalidInput(f"{source}:{line}: {written}: a time ({timeline_clock.FORMATS}) or seconds after the death")
        entries.append(Entry(key, written, value_node.value.strip(), line))
    return entries


def normal(key: str) -> str:
    return re.sub(r"[\s\-.]+", "_", key.strip().lower())


def _did_you_mean(written: str) -> str:
    near = difflib.get_close_matches(normal(written), list(MEANING), n=1, cutoff=0.75)
    if near:
        return f"; did you mean {near[0]} (the timeline's `{MEANING[near[0]]}`)?"
    return f" ({', '.join(KEYS)}, or the names logs give them: backend_died, lb_removed_backend, app_first_error, ...)"


def _moment(entry: Entry, source: str) -> timeline_clock.Moment:
    moment = timeline_clock.read(entry.value)
    if moment is None:
        raise InvalidInput(f"{source}:{entry.line}: {entry.written}: {entry.value!r} is not a time "
                           f"({timeline_clock.FORMATS})")
    return moment


def _after(entry: Entry, death: timeline_clock.Moment, source: str) -> float:
    if re.fullmatch(r"\d+(\.\d+)?", entry.value):
        seconds = float(entry.value)
    else:
        seconds = timeline_clock.seconds_after(_moment(entry, source), death)
    if seconds < 0:
        raise InvalidInput(f"{source}:{entry.line}: {entry.written}: {entry.value} is {-seconds:.0f} s before the "
                           f"death: a timeline's moments come after it")
    if seconds > 86_400:
        raise InvalidInput(f"{source}:{entry.line}: {entry.written}: {entry.value!r} is not within a day after the death")
    return seconds


def _in_order(after: Mapping[str, float], by_key: Mapping[str, Entry], source: str) -> None:
    if "first_error" in after and "recovered" in after and after["recovered"] < after["first_error"]:
        recovered, first = by_key["recovered"], by_key["first_error"]
        raise InvalidInput(f"{source}:{recovered.line}: {recovered.written}: {recovered.value} "
                           f"({after['recovered']:.0f} s after the death) comes before the first error "
                           f"({first.written} at line {first.line}, {after['first_error']:.0f} s): one of them is wrong")
