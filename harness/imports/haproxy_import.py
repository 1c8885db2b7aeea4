"""An operator's haproxy.cfg -> the lab's HAProxy settings (control.haproxy), each directive used,
named as not modelled, or of no bearing on a failover; refused with file:line where the lab cannot
stand in for it. The database's backend is the `backend` or `listen` section whose servers listen
on 3306 or 5432 (else the only one with servers); its first server that is not `backup` is the
primary, a `backup` server the standby. What it inherits comes from the `defaults` section before
it, as in HAProxy (its configuration manual, sections 2.5, 4 and 5)."""
import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import InvalidInput
from . import haproxy_keywords as keywords
from .haproxy_sections import Line, Section, sections
from .haproxy_servers import check_servers, is_primary, server_options
from .haproxy_values import count, seconds, set_option
from .said import no_bearing_line, within_lab

DATABASE_PORTS = ("3306", "5432")
TIMEOUTS = {"connect", "client", "server", "tunnel", "check"}
OPTIONS = {"redispatch", "clitcpka", "srvtcpka", "nolinger"}

@dataclasses.dataclass
class HaproxyImport:
    source: str
    settings: dict[str, Any] = dataclasses.field(default_factory=dict)    # control.haproxy's settings
    used: list[str] = dataclasses.field(default_factory=list)
    not_modelled: list[str] = dataclasses.field(default_factory=list)
    no_bearing: list[str] = dataclasses.field(default_factory=list)
    mode: tuple[str, str] | None = None          # (mode, file:line) of the last `mode` read
    said_at: dict[str, str] = dataclasses.field(default_factory=dict)    # setting -> 'file:line: directive' (said.py)
    no_bearing_why: dict[str, str] = dataclasses.field(default_factory=dict)  # keyword -> why (haproxy_keywords.py)

    def lines(self) -> list[str]:
        return (self.used + [f"{line} (not modelled)" for line in self.not_modelled]
                + ([no_bearing_line(self.source, self.no_bearing, self.no_bearing_why)] if self.no_bearing else []))

    def explain_words(self) -> list[str]:
        words = " ".join(f"{key}={str(value).lower() if isinstance(value, bool) else f'{value:g}' if isinstance(value, float) else value}"
                         for key, value in self.settings.items())
        return [f"HAPROXY={words}"] if words else ["HAPROXY=inter=2"]     # HAProxy's defaults, said as one


def read(path: Path) -> HaproxyImport:
    return interpret(path.read_text(errors="replace"), str(path))


def interpret(text: str, source: str = "haproxy.cfg") -> HaproxyImport:
    parsed = sections(text, source)
    candidates = [(i, s) for i, s in enumerate(parsed) if s.keyword in ("backend", "listen")
                  and any(line.words[0] == "server" for line in s.lines)]
    database = [(i, s) for i, s in candidates if any(line.words[0] == "server" and len(line.words) > 2
                                                     and line.words[2].rsplit(":", 1)[-1] in DATABASE_PORTS
                                                     for line in s.lines)]
    chosen = database or candidates
    if len(chosen) != 1:
        names = ", ".join(s.name for _, s in chosen) or "none"
        raise InvalidInput(f"{source}: the lab models one database backend; backends with servers on "
                           f"{' or '.join(DATABASE_PORTS)}: {names}")
    index, backend = chosen[0]
    found = HaproxyImport(source)
    read_here = defaults_of(parsed, index, backend) + [backend]
    for section in read_here:
        for line in section.lines:
            known = keywords.proxy(line.words)
            if line.condition and not (known and known[1][0] == keywords.NO_BEARING):
                raise InvalidInput(f"{line.where}: {' '.join(line.words)}: under {line.condition}: the lab cannot "
                                   "tell whether your HAProxy reads it: keep the branch it takes, drop the .if")
            _directive(line, found, backend)
    _mode(found)
    check_servers(read_here, backend, found)
    within_lab(found, "haproxy")
    for section in parsed:
        if section in read_here or not section.lines:
            continue
        if section.keyword == "global":
            found.no_bearing.append("global")
            found.no_bearing_why["global"] = "the process's settings"
        else:
            found.not_modelled.append(f"{section.where}: {section.keyword} {section.name}: not read: the lab "
                                      f"reads the database's backend ({backend.name}) and the defaults it takes")
    return found


def defaults_of(parsed: Sequence[Section], index: int, section: Section) -> list[Section]:
    """The defaults sections `section` (parsed[index]) takes its settings from, outermost first:
    the one its `from` names, else the last before it (each `defaults` section starts afresh, unless
    it names another with `from`: HAProxy's manual, section 4)."""
    if section.parent:
        named = [(i, s) for i, s in enumerate(parsed[:index]) if s.keyword == "defaults" and s.name == section.parent]
        if not named:
            raise InvalidInput(f"{section.where}: from {section.parent}: no defaults section of that name before it")
        at, chosen = named[-1]
    elif section.keyword == "defaults":
        return []
    else:
        before = [(i, s) for i, s in enumerate(parsed[:index]) if s.keyword == "defaults"]
        if not before:
            return []
        at, chosen = before[-1]
    return defaults_of(parsed, at, chosen) + [chosen]


def _mode(found: HaproxyImport) -> None:
    """The mode the backend runs in: the last `mode` read (its own over its defaults'); HAProxy's
    default is tcp."""
    if found.mode is None:
        return
    mode, where = found.mode
    if mode != "tcp":
        raise InvalidInput(f"{where}: mode {mode}: the lab's HAProxy runs in TCP mode (the backend's mode is the last "
                           "said: its own, else its defaults')")
    found.used.append(f"{where}: mode tcp")


def _directive(line: Line, found: HaproxyImport, backend: Section) -> None:
    words, where = line.words, line.where
    key = words[0]
    if key == "mode" and len(words) > 1:
        found.mode = (words[1], where)
    elif key == "timeout" and len(words) > 2 and words[1] in TIMEOUTS:
        set_option(found, f"timeout_{words[1]}", seconds(words[2], where), line)
        found.used.append(f"{where}: timeout {words[1]} {words[2]}: timeout_{words[1]}={found.settings[f'timeout_{words[1]}']:g} s")
    elif key == "retries":
        set_option(found, "retries", count(words[1] if len(words) > 1 else None, where, "retries"), line)
        found.used.append(f"{where}: retries {words[1]}")
    elif key == "option" and len(words) > 1:
        _option(words[1:], True, line, found)
    elif key == "no" and len(words) > 2 and words[1] == "option":
        _option(words[2:], False, line, found)
    elif key == "no" and words[1:] == ("log",):
        _classified(found, line, ("log",), keywords.PROXY["log"])
    elif key in ("srvtcpka-idle", "srvtcpka-intvl"):
        set_option(found, key.replace("-", "_"), seconds(words[1] if len(words) > 1 else None, where), line)
        found.used.append(f"{where}: {key} {words[1]}")
    elif key == "srvtcpka-cnt":
        set_option(found, "srvtcpka_cnt", count(words[1] if len(words) > 1 else None, where, key), line)
        found.used.append(f"{where}: {key} {words[1]}")
    elif key in ("default-server", "server"):
        server_options(words[1:] if key == "default-server" else words[3:], line, found,
                primary=key == "server" and is_primary(line, backend))
    elif key == "bind":
        _bind(words[2:], line, found)
    else:
        _by_table(found, line, words)


def _by_table(found: HaproxyImport, line: Line, words: Sequence[str]) -> None:
    """A line the code does not turn into a setting, as haproxy_keywords.py classifies it."""
    known = keywords.proxy(words)
    if known is None:
        said = " ".join(words[:2]) if words[0] in ("option", "timeout", "no") else words[0]
        near = keywords.nearest(said, keywords.PROXY)
        raise InvalidInput(f"{line.where}: {' '.join(words)}: not a keyword of a defaults, listen or backend section "
                           "in HAProxy's configuration manual (2.6)" + (f"; did you mean {near}?" if near else ""))
    _classified(found, line, tuple(known[0].split()), known[1])


def _classified(found: HaproxyImport, line: Line, keyword: Sequence[str], known: tuple[str, str]) -> None:
    verdict, why = known
    name = " ".join(keyword)
    if verdict == keywords.NO_BEARING:
        found.no_bearing.append(name)
        found.no_bearing_why[name] = why
    else:
        found.not_modelled.append(f"{line.where}: {' '.join(line.words)}: {why}")


def _bind(words: Sequence[str], line: Line, found: HaproxyImport) -> None:
    """A listen section's bind: its tcp-ut is TCP_USER_TIMEOUT on the clients' leg; the rest, where
    and how it listens, has no bearing."""
    if "tcp-ut" in words:
        value = words[words.index("tcp-ut") + 1] if words.index("tcp-ut") + 1 < len(words) else None
        set_option(found, "tcp_ut_client", seconds(value, line.where), line)
        found.used.append(f"{line.where}: bind ... tcp-ut {value}: tcp_ut_client={found.settings['tcp_ut_client']:g} s")
    found.no_bearing.append("bind")
    found.no_bearing_why["bind"] = "where HAProxy listens"


def _option(words: Sequence[str], on: bool, line: Line, found: HaproxyImport) -> None:
    name, where = words[0], line.where
    if name in OPTIONS:
        set_option(found, name, on, line)
        found.used.append(f"{where}: {'' if on else 'no '}option {name}: {name}={str(on).lower()}")
    elif name == "mysql-check":
        user = words[2] if len(words) > 2 and words[1] == "user" else None
        set_option(found, "check", "mysql-user" if user else "mysql", line)
        found.used.append(f"{where}: option mysql-check{' user ' + user if user else ''}: check="
                          f"{'mysql-user' if user else 'mysql'}" + (" (the lab's check logs in as haproxy_check, "
                                                                     "no password)" if user else ""))
        rest = words[3:] if user else words[1:]
        if [w for w in rest if w != "post-41"]:
            found.not_modelled.append(f"{where}: option mysql-check {' '.join(words[1:])}: the lab's check takes a "
                                      "user and post-41, no more")
    elif name == "tcp-check":
        set_option(found, "check", "tcp", line)
        found.used.append(f"{where}: option tcp-check: check=tcp")
    elif name == "tcpka":
        for both in ("clitcpka", "srvtcpka"):
            set_option(found, both, on, line)
        found.used.append(f"{where}: {'' if on else 'no '}option tcpka: clitcpka={str(on).lower()} "
                          f"srvtcpka={str(on).lower()}")
    elif name == "httpchk":
        found.not_modelled.append(f"{where}: option {' '.join(words)}: an HTTP check (Patroni's /primary is control: "
                                  "patroni's)")
    else:
        _by_table(found, line, ("option", *words))
