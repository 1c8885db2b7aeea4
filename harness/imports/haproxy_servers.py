"""The servers of the database's backend as HAProxy reads them (its configuration manual, 5.2): the
options of each server and default-server line, and what the lab needs of them: one checked
primary and a backup."""
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import InvalidInput
from . import haproxy_keywords as keywords
from .haproxy_sections import Line, Section
from .haproxy_values import count, seconds, set_option

if TYPE_CHECKING:
    from .haproxy_import import HaproxyImport

SERVER_TIMERS = {"inter", "fastinter", "downinter"}
SERVER_COUNTS = {"fall", "rise"}


def check_servers(read_here: Sequence[Section], backend: Section, found: "HaproxyImport") -> None:
    """The lab has one primary and a standby; it needs the primary health-checked to model a failover.
    A second active server is the standby HAProxy sends new sessions to once the first is down (with
    no `backup` server); any further one is named, its own timers not read."""
    servers = [line for line in backend.lines if line.words[0] == "server"]
    for line in servers:
        if len(line.words) < 3:
            raise InvalidInput(f"{line.where}: {' '.join(line.words)}: a server takes a name and an address")
    active = [line for line in servers if "backup" not in line.words]
    if not active:
        raise InvalidInput(f"{servers[0].where}: every server is `backup`: the lab needs a primary")
    has_backup = len(active) < len(servers)
    for other in active[1:]:
        role = ("the lab's standby: HAProxy balances new sessions over it and the first until the first is down, "
                "the lab sends them to it only then" if other is active[1] and not has_backup else
                "another active server HAProxy balances new sessions over")
        found.not_modelled.append(f"{other.where}: server {other.words[1]}: {role}; the lab's primary is "
                                  f"{active[0].words[1]} ({active[0].where}), whose timers it reads, not this one's")
    if len(servers) == 1:
        raise InvalidInput(f"{servers[0].where}: server {servers[0].words[1]}: the backend's only server: when it dies "
                           "HAProxy has nowhere to send new sessions; the lab models a failover to a `backup` server")
    primary = active[0]
    defaults = [line for section in read_here for line in section.lines if line.words[0] == "default-server"]
    checked = ("check" in primary.words or any("check" in line.words for line in defaults)) and \
        "no-check" not in primary.words
    if not checked:
        raise InvalidInput(f"{primary.where}: server {primary.words[1]} has no `check` (nor a default-server with "
                           "one): HAProxy never checks it, so never marks it down and never sends new sessions to "
                           "the backup; its clients wait on their own limits and reconnect to the dead server. The "
                           "lab models a checked primary: add `check` to ask what checks would change")


def is_primary(line: Line, backend: Section) -> bool:
    """Whether a server line is the backend's first active one: the lab's primary."""
    active = [other for other in backend.lines if other.words[0] == "server" and "backup" not in other.words]
    return bool(active) and line is active[0]


def server_options(words: Sequence[str], line: Line, found: "HaproxyImport", primary: bool) -> None:
    """A server's (or default-server's) options; only the primary's and default-server's are the
    lab's (HAProxy's checks of the standby decide nothing about the primary's death)."""
    where, i = line.where, 0
    while i < len(words):
        word = words[i]
        value = words[i + 1] if i + 1 < len(words) else None
        if word in SERVER_TIMERS or word in SERVER_COUNTS or word == "tcp-ut":
            if primary or line.words[0] == "default-server":
                key = "tcp_ut_server" if word == "tcp-ut" else word
                set_option(found, key, count(value, where, word) if word in SERVER_COUNTS else seconds(value, where), line)
                found.used.append(f"{where}: {word} {value}: {key}={found.settings[key]:g}")
            i += 2
        elif word in ("on-marked-down", "on-marked-up"):
            wanted = {"on-marked-down": "shutdown-sessions", "on-marked-up": "shutdown-backup-sessions"}[word]
            if value == wanted:
                key = value.replace("-", "_")
                set_option(found, key, True, line)
                found.used.append(f"{where}: {word} {value}: {key}=true")
            else:
                found.not_modelled.append(f"{where}: {word} {value}")
            i += 2
        elif word == "backup":
            found.used.append(f"{where}: backup: the lab's standby")
            i += 1
        elif word in ("check", "no-check"):
            if primary or line.words[0] == "default-server":
                found.used.append(f"{where}: {word}: HAProxy {'checks' if word == 'check' else 'does not check'} "
                                  f"{'this server' if primary else 'the servers after it'}")
            i += 1
        elif word in keywords.SERVER:
            verdict, why = keywords.SERVER[word]
            if verdict == keywords.NO_BEARING:
                found.no_bearing.append(f"server {word}")
                found.no_bearing_why[f"server {word}"] = why
            else:
                found.not_modelled.append(f"{where}: {line.words[0]} ... {word}: {why}")
            i += 1 if word in keywords.SERVER_FLAGS else 2
        else:
            near = keywords.nearest(word, keywords.SERVER)
            raise InvalidInput(f"{where}: {line.words[0]} ... {word}: not a server option in HAProxy's configuration "
                               "manual (2.6)" + (f"; did you mean {near}?" if near else ""))
