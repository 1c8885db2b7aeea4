"""An operator's haproxy.cfg -> the lab's HAProxy settings (control.haproxy), each directive used,
named as not modelled, or of no bearing on a failover; refused with file:line where the lab cannot
stand in for it. The database's backend is the `backend` or `listen` section whose servers listen
on 3306 or 5432 (else the only one with servers); its first server that is not `backup` is the
primary, a `backup` server the standby. What it inherits comes from the `defaults` section before
it, as in HAProxy (its configuration manual, sections 2.5, 4 and 5)."""
import dataclasses
import re

from ..errors import InvalidInput
from .haproxy_sections import sections
from .said import set_said, within_lab

DATABASE_PORTS = ("3306", "5432")
TIME = re.compile(r"^(\d+(?:\.\d+)?)(us|ms|s|m|h|d)?$")
UNIT_S = {"us": 1e-6, "ms": 1e-3, None: 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
TIMEOUTS = {"connect", "client", "server", "tunnel", "check"}
OPTIONS = {"redispatch", "clitcpka", "srvtcpka", "nolinger"}
SERVER_TIMERS = {"inter", "fastinter", "downinter"}
SERVER_COUNTS = {"fall", "rise"}
NO_BEARING = {"log", "maxconn", "balance", "bind", "stats", "daemon", "user", "group", "chroot", "pidfile",
              "nbthread", "cpu-map", "description", "default_backend", "use_backend", "ca-base", "crt-base",
              "ssl-default-bind-ciphers", "ssl-default-bind-options", "log-format", "errorfile", "hash-type",
              "tune.ssl.default-dh-param", "master-worker", "node", "ulimit-n"}
NO_BEARING_OPTIONS = {"tcplog", "httplog", "dontlognull", "log-health-checks", "logasap", "splice-auto"}
SERVER_NO_BEARING = {"check", "port", "addr", "weight", "maxconn", "minconn", "maxqueue", "id", "cookie", "agent-check",
                     "agent-port", "agent-inter", "slowstart", "init-addr", "resolvers", "check-send-proxy"}


@dataclasses.dataclass
class HaproxyImport:
    source: str
    settings: dict = dataclasses.field(default_factory=dict)    # control.haproxy's settings
    used: list = dataclasses.field(default_factory=list)
    not_modelled: list = dataclasses.field(default_factory=list)
    no_bearing: list = dataclasses.field(default_factory=list)
    mode: tuple = None          # (mode, file:line) of the last `mode` read
    said_at: dict = dataclasses.field(default_factory=dict)    # setting -> 'file:line: directive' (said.py)

    def lines(self):
        return (self.used + [f"{line} (not modelled)" for line in self.not_modelled]
                + ([f"{self.source}: no bearing on a failover: {', '.join(sorted(set(self.no_bearing)))}"]
                   if self.no_bearing else []))

    def explain_words(self):
        words = " ".join(f"{key}={str(value).lower() if isinstance(value, bool) else f'{value:g}' if isinstance(value, float) else value}"
                         for key, value in self.settings.items())
        return [f"HAPROXY={words}"] if words else ["HAPROXY=inter=2"]     # HAProxy's defaults, said as one


def count(text, where, what):
    """A whole number HAProxy reads (retries, fall, rise, srvtcpka-cnt)."""
    if text is None or not re.fullmatch(r"[0-9]+", text):
        raise InvalidInput(f"{where}: {what} {text or ''}: takes a whole number")
    return int(text)


def seconds(text, where):
    if text is None:
        raise InvalidInput(f"{where}: a time is missing (a number with us, ms, s, m, h or d)")
    m = TIME.match(text)
    if not m:
        raise InvalidInput(f"{where}: {text!r}: not one of HAProxy's times (a number with us, ms, s, m, h or d)")
    return round(float(m.group(1)) * UNIT_S[m.group(2)], 6)


def read(path):
    return interpret(path.read_text(errors="replace"), str(path))


def interpret(text, source="haproxy.cfg"):
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
            if line.condition and line.words[0] not in NO_BEARING:
                raise InvalidInput(f"{line.where}: {' '.join(line.words)}: under {line.condition}: the lab cannot "
                                   "tell whether your HAProxy reads it: keep the branch it takes, drop the .if")
            _directive(line, found)
    _mode(found)
    _servers(read_here, backend)
    within_lab(found, "haproxy")
    for section in parsed:
        if section in read_here or not section.lines:
            continue
        if section.keyword == "global":
            found.no_bearing.append("global (the process's settings)")
        else:
            found.not_modelled.append(f"{section.where}: {section.keyword} {section.name}: not read: the lab "
                                      f"reads the database's backend ({backend.name}) and the defaults it takes")
    return found


def defaults_of(parsed, index, section):
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


def _mode(found):
    """The mode the backend runs in: the last `mode` read (its own over its defaults'); HAProxy's
    default is tcp."""
    if found.mode is None:
        return
    mode, where = found.mode
    if mode != "tcp":
        raise InvalidInput(f"{where}: mode {mode}: the lab's HAProxy runs in TCP mode (the backend's mode is the last "
                           "said: its own, else its defaults')")
    found.used.append(f"{where}: mode tcp")


def _servers(read_here, backend):
    """The lab has one primary and a backup; it needs the primary health-checked to model a failover."""
    servers = [line for line in backend.lines if line.words[0] == "server"]
    for line in servers:
        if len(line.words) < 3:
            raise InvalidInput(f"{line.where}: {' '.join(line.words)}: a server takes a name and an address")
    active = [line for line in servers if "backup" not in line.words]
    if not active:
        raise InvalidInput(f"{servers[0].where}: every server is `backup`: the lab needs a primary")
    if len(active) > 1:
        raise InvalidInput(f"{active[1].where}: server {active[1].words[1]}: a second active server beside "
                           f"{active[0].words[1]} ({active[0].where}): HAProxy balances new sessions over both, and "
                           "the lab models one primary with a `backup` server")
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


RULE = "HAProxy: the last said, a server's own over default-server's, a backend's over its defaults'"


def _said(line):
    return f"{line.where}: {' '.join(line.words)}"


def _set(found, key, value, line):
    set_said(found, key, value, _said(line), RULE)


def _directive(line, found):
    words, where = line.words, line.where
    key = words[0]
    if key == "mode" and len(words) > 1:
        found.mode = (words[1], where)
    elif key == "timeout" and len(words) > 2:
        if words[1] in TIMEOUTS:
            _set(found, f"timeout_{words[1]}", seconds(words[2], where), line)
            found.used.append(f"{where}: timeout {words[1]} {words[2]}: timeout_{words[1]}={found.settings[f'timeout_{words[1]}']:g} s")
        else:
            found.not_modelled.append(f"{where}: timeout {words[1]}")
    elif key == "retries":
        _set(found, "retries", count(words[1] if len(words) > 1 else None, where, "retries"), line)
        found.used.append(f"{where}: retries {words[1]}")
    elif key == "option" and len(words) > 1:
        _option(words[1:], True, line, found)
    elif key == "no" and len(words) > 2 and words[1] == "option":
        _option(words[2:], False, line, found)
    elif key == "no" and words[1:] == ("log",):
        found.no_bearing.append("no log")
    elif key in ("srvtcpka-idle", "srvtcpka-intvl"):
        _set(found, key.replace("-", "_"), seconds(words[1] if len(words) > 1 else None, where), line)
        found.used.append(f"{where}: {key} {words[1]}")
    elif key == "srvtcpka-cnt":
        _set(found, "srvtcpka_cnt", count(words[1] if len(words) > 1 else None, where, key), line)
        found.used.append(f"{where}: {key} {words[1]}")
    elif key in ("default-server", "server"):
        _server(words[1:] if key == "default-server" else words[3:], line, found,
                primary=key == "server" and "backup" not in words)
    elif key == "tcp-check":
        found.not_modelled.append(f"{where}: {' '.join(words)}: the lab's tcp check is a connect")
    elif key == "http-check":
        found.not_modelled.append(f"{where}: {' '.join(words)}")
    elif key in NO_BEARING:
        found.no_bearing.append(key)
    else:
        found.not_modelled.append(f"{where}: {' '.join(words)}")


def _option(words, on, line, found):
    name, where = words[0], line.where
    if name in OPTIONS:
        _set(found, name, on, line)
        found.used.append(f"{where}: {'' if on else 'no '}option {name}: {name}={str(on).lower()}")
    elif name == "mysql-check":
        user = words[2] if len(words) > 2 and words[1] == "user" else None
        _set(found, "check", "mysql-user" if user else "mysql", line)
        found.used.append(f"{where}: option mysql-check{' user ' + user if user else ''}: check="
                          f"{'mysql-user' if user else 'mysql'}" + (" (the lab's check logs in as haproxy_check, "
                                                                     "no password)" if user else ""))
        rest = words[3:] if user else words[1:]
        if [w for w in rest if w != "post-41"]:
            found.not_modelled.append(f"{where}: option mysql-check {' '.join(words[1:])}: the lab's check takes a "
                                      "user and post-41, no more")
    elif name == "tcp-check":
        _set(found, "check", "tcp", line)
        found.used.append(f"{where}: option tcp-check: check=tcp")
    elif name in NO_BEARING_OPTIONS:
        found.no_bearing.append(f"option {name}")
    else:
        found.not_modelled.append(f"{where}: option {' '.join(words)}" + (
            ": an HTTP check (Patroni's /primary is control: patroni's)" if name == "httpchk" else ""))


def _server(words, line, found, primary):
    """A server's (or default-server's) options; only the primary's and default-server's are the
    lab's (HAProxy's checks of the standby decide nothing about the primary's death)."""
    where, i = line.where, 0
    while i < len(words):
        word = words[i]
        value = words[i + 1] if i + 1 < len(words) else None
        if word in SERVER_TIMERS or word in SERVER_COUNTS or word == "tcp-ut":
            if primary or line.words[0] == "default-server":
                key = "tcp_ut_server" if word == "tcp-ut" else word
                _set(found, key, count(value, where, word) if word in SERVER_COUNTS else seconds(value, where), line)
                found.used.append(f"{where}: {word} {value}: {key}={found.settings[key]:g}")
            i += 2
        elif word in ("on-marked-down", "on-marked-up"):
            wanted = {"on-marked-down": "shutdown-sessions", "on-marked-up": "shutdown-backup-sessions"}[word]
            if value == wanted:
                key = value.replace("-", "_")
                _set(found, key, True, line)
                found.used.append(f"{where}: {word} {value}: {key}=true")
            else:
                found.not_modelled.append(f"{where}: {word} {value}")
            i += 2
        elif word == "backup":
            found.used.append(f"{where}: backup: the lab's standby")
            i += 1
        elif word in SERVER_NO_BEARING:
            found.no_bearing.append(f"server {word}")
            i += 2 if word not in ("check", "check-send-proxy", "agent-check") else 1
        else:
            found.not_modelled.append(f"{where}: {line.words[0]} ... {word}")
            i += 1
