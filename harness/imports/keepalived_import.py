"""An operator's keepalived.conf (keepalived_tree.py) -> the lab's keepalived settings, each
directive used, named as not modelled, or refused with file:line. The lab's director has one
MySQL virtual server: the operator's first real server is its primary, the sorry server (or a
second real server, said so) its standby; the timers are keepalived's own (keepalived.conf(5)):
delay_loop on the virtual server or its checker, connect_timeout, retry (nb_get_retry before 2.0),
delay_before_retry on the checker."""
import dataclasses
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import InvalidInput
from . import keepalived_keywords, keepalived_tree
from .said import no_bearing_line, set_said, within_lab

CHECKERS = {"TCP_CHECK": "tcp", "MISC_CHECK": "mysql", "HTTP_GET": "tcp", "SSL_GET": "tcp", "SMTP_CHECK": "tcp"}
# keepalived.conf(5): a checker's timers when nothing sets them, where they differ from TCP_CHECK's
# (the lab's defaults: retry 1, delay_before_retry 1 s, connect_timeout 5 s)
CHECKER_DEFAULTS = {"MISC_CHECK": {"retry": 0}, "HTTP_GET": {"delay_before_retry": 3}, "SSL_GET": {"delay_before_retry": 3}}
RULE = "keepalived: a checker's own over its real server's, a real server's over its virtual server's"
# set on the virtual server they are the real servers' defaults, on a real server its checkers'
INHERITED = ("connect_timeout", "retry", "nb_get_retry", "delay_before_retry", "delay_loop")


@dataclasses.dataclass
class KeepalivedImport:
    source: str
    settings: dict[str, Any] = dataclasses.field(default_factory=dict)   # control.keepalived's settings, as a scenario says them
    idle_timeout_s: int | None = None                                   # lvs_timeouts tcp: the director's flow timeout
    used: list[str] = dataclasses.field(default_factory=list)         # "file:line: directive: what it became"
    not_modelled: list[str] = dataclasses.field(default_factory=list)
    no_bearing: list[str] = dataclasses.field(default_factory=list)
    said_at: dict[str, str] = dataclasses.field(default_factory=dict)     # setting -> 'file:line: directive' (said.py)
    no_bearing_why: dict[str, str] = dataclasses.field(default_factory=dict)  # keyword -> why (keepalived_keywords.py)

    def lines(self) -> list[str]:
        return ([f"{line}" for line in self.used] + [f"{line} (not modelled)" for line in self.not_modelled]
                + ([no_bearing_line(self.source, self.no_bearing, self.no_bearing_why)] if self.no_bearing else []))

    def explain_words(self) -> list[str]:
        names = {"delay_loop": "DELAY_LOOP", "connect_timeout": "CONNECT_TIMEOUT", "retry": "RETRY",
                 "delay_before_retry": "DELAY_BEFORE_RETRY"}
        words = [f"{names[key]}={value:g}" for key, value in self.settings.items() if key in names]
        return words or ["DELAY_LOOP=60"]        # keepalived runs with its defaults: the model says so


def read(path: str | Path) -> KeepalivedImport:
    return interpret(keepalived_tree.parse_file(path), str(path))


def interpret(statements: Sequence[keepalived_tree.Statement], source: str = "keepalived.conf") -> KeepalivedImport:
    found = KeepalivedImport(source)
    servers = [s for s in statements if s.keyword == "virtual_server"]
    if not servers:
        raise InvalidInput(f"{source}: no virtual_server: the lab models keepalived in front of a database")
    main = next((s for s in servers if s.args[-1:] == ("3306",)), servers[0])
    for statement in statements:
        if statement is main:
            _virtual_server(statement, found)
        elif statement.keyword == "global_defs":
            _global_defs(statement, found)
        elif statement.keyword == "vrrp_instance":
            _vrrp(statement, found)
        else:
            found.not_modelled.append(f"{statement.where}: {statement.keyword} {' '.join(statement.args)}: the lab's "
                                      "director has one virtual server, on the MySQL port" if statement.keyword ==
                                      "virtual_server" else f"{statement.where}: {statement.keyword}")
    if "vrrp" in found.settings and any("lvs_sync_daemon" in line for line in found.used):
        found.settings["vrrp"] = "sync"
    within_lab(found, "keepalived")
    return found


def _has_block(statement: keepalived_tree.Statement) -> tuple[keepalived_tree.Statement, ...]:
    """The statements of its block; one without a block is refused."""
    if statement.block is None:
        raise InvalidInput(f"{statement.where}: {statement.keyword}: its settings go in a {{ ... }} block")
    return statement.block


def _number(statement: keepalived_tree.Statement, minimum: float = 0.0) -> float:
    try:
        value = float(statement.args[0])
    except (IndexError, ValueError):
        raise InvalidInput(f"{statement.where}: {statement.keyword}: a number, not "
                           f"{' '.join(statement.args) or 'nothing'}") from None
    if not math.isfinite(value):
        raise InvalidInput(f"{statement.where}: {statement.keyword}: a number, not {statement.args[0]}")
    if value < minimum:
        raise InvalidInput(f"{statement.where}: {statement.keyword}: at least {minimum:g}, not {value:g}")
    return int(value) if value == int(value) else value


def _bool(statement: keepalived_tree.Statement) -> bool:
    """keepalived.conf(5)'s <BOOL>: on|off|true|false|yes|no; the keyword alone is on."""
    said = statement.args[0].lower() if statement.args else "on"
    if said not in ("on", "off", "true", "false", "yes", "no"):
        raise InvalidInput(f"{statement.where}: {statement.keyword} {said}: on, off, true, false, yes or no")
    return said in ("on", "true", "yes")


def _unused(found: KeepalivedImport, statement: keepalived_tree.Statement, section: str, with_args: bool = True) -> None:
    """A directive the lab does not turn, as keepalived_keywords.py classifies it: named as having no
    bearing (and why), as not modelled (and why); one that is not keepalived's refused at its line."""
    known = keepalived_keywords.verdict(section, statement.keyword)
    if known is None:
        near = keepalived_keywords.nearest(section, statement.keyword)
        raise InvalidInput(f"{statement.where}: {statement.keyword}: not a keyword of keepalived.conf(5) in "
                           f"{'a checker' if section == 'checker' else section} (keepalived 2.2.7)"
                           + (f"; did you mean {near}?" if near else ""))
    verdict, why = known
    args = f" {' '.join(statement.args)}" if with_args and statement.args else ""
    if verdict == keepalived_keywords.NO_BEARING:
        found.no_bearing.append(statement.keyword)
        found.no_bearing_why[statement.keyword] = why
    elif verdict == keepalived_keywords.NOT_MODELLED:
        found.not_modelled.append(f"{statement.where}: {statement.keyword}{args}: {why}")
    else:                           # one the lab reads where keepalived.conf(5) puts it, said elsewhere or again
        found.not_modelled.append(f"{statement.where}: {statement.keyword}{args}: the lab reads it only where "
                                  "keepalived.conf(5) puts it, once (a primary, its first checker)")


def _use(found: KeepalivedImport, statement: keepalived_tree.Statement, key: str, value: object) -> None:
    set_said(found, key, value, f"{statement.where}: {' '.join((statement.keyword, *statement.args))}", RULE)
    said = " ".join((statement.keyword, *statement.args))
    found.used.append(f"{statement.where}: {said}: {key} {value}" if said != f"{key} {value}" else f"{statement.where}: {said}")


def _global_defs(block: keepalived_tree.Statement, found: KeepalivedImport) -> None:
    children = _has_block(block)
    for s in children:
        if s.keyword == "lvs_timeouts" and "tcp" in s.args and s.args.index("tcp") + 1 < len(s.args):
            value = s.args[s.args.index("tcp") + 1]
            if not re.fullmatch(r"[0-9]+", value) or int(value) < 1:
                raise InvalidInput(f"{s.where}: lvs_timeouts tcp {value}: takes whole seconds (at least 1)")
            found.idle_timeout_s = int(value)
            found.no_bearing.append("lvs_timeouts")
            found.no_bearing_why["lvs_timeouts"] = keepalived_keywords.GLOBAL_DEFS["lvs_timeouts"][1]
        elif s.keyword == "lvs_sync_daemon":
            found.used.append(f"{s.where}: lvs_sync_daemon: the backup director gets the connection table (vrrp sync)")
        else:
            _unused(found, s, "global_defs", with_args=False)


def _vrrp(block: keepalived_tree.Statement, found: KeepalivedImport) -> None:
    children = _has_block(block)
    found.settings.setdefault("vrrp", "plain")
    found.used.append(f"{block.where}: vrrp_instance {' '.join(block.args)}: a backup director sharing the VIP")
    for s in children:
        if s.keyword == "advert_int":
            _use(found, s, "advert_int", _number(s, 1))
        elif s.keyword in ("nopreempt", "preempt"):
            _use(found, s, "preempt", s.keyword == "preempt")
        else:
            _unused(found, s, "vrrp_instance")


def _virtual_server(block: keepalived_tree.Statement, found: KeepalivedImport) -> None:
    children = _has_block(block)
    reals = block.find("real_server")
    if not reals:
        raise InvalidInput(f"{block.where}: virtual_server {' '.join(block.args)}: no real_server")
    timers: dict[str, Any] = {}
    own: dict[str, Any] = {}
    for s in [s for s in children if s.keyword == "delay_loop"]:
        _timer({}, own, s, found)   # first: a MISC_CHECK's timeout defaults to it, wherever it is said
    if own:
        _use(found, own["delay_loop"], "delay_loop", _number(own["delay_loop"], 0.1))
    for s in children:
        if s.keyword == "delay_loop":
            continue
        elif s.keyword == "inhibit_on_failure":      # the real servers' default
            _use(found, s, "inhibit_on_failure", _bool(s))
        elif s.keyword in INHERITED:
            _timer(timers, own, s, found)
        elif s.keyword in ("lb_kind", "lvs_method"):
            _forwarding(s, found)
        elif s.keyword == "protocol" and s.args[:1] != ("TCP",):
            raise InvalidInput(f"{s.where}: protocol {' '.join(s.args)}: the lab models TCP connections")
        elif s.keyword in ("lb_algo", "lvs_sched"):
            found.used.append(f"{s.where}: {s.keyword} {' '.join(s.args)}: no choice to make: the lab's director "
                              "sends to one server at a time")
        elif s.keyword == "protocol":
            found.used.append(f"{s.where}: {s.keyword} {s.args[0]}: as the lab's director")
        elif s.keyword == "sorry_server":
            found.used.append(f"{s.where}: sorry_server: the lab's replica (keepalived puts it in when the primary fails)")
        elif s.keyword == "real_server" and s is reals[0]:
            _real_server(s, found, timers)
        elif s.keyword == "real_server" and s is reals[1] and not block.first("sorry_server"):
            found.used.append(f"{s.where}: real_server {' '.join(s.args)}: the lab's replica, as a sorry server (here "
                              "it takes the traffic when the first fails, not beside it)")
        else:
            _unused(found, s, "virtual_server")


def _timer(timers: dict[str, keepalived_tree.Statement], own: dict[str, keepalived_tree.Statement], s: keepalived_tree.Statement, found: KeepalivedImport) -> None:
    """A timer said in this block: it replaces one said before in the same block (keepalived takes
    the last), said so; one inherited from the enclosing block is the rule, not a repetition."""
    if s.keyword in own:
        first = own[s.keyword]
        found.used.append(f"{s.where}: {s.keyword} {' '.join(s.args)}: replaces {first.where}: {first.keyword} "
                          f"{' '.join(first.args)} (keepalived takes the last said)")
    own[s.keyword] = timers[s.keyword] = s


def _forwarding(s: keepalived_tree.Statement, found: KeepalivedImport) -> None:
    """lb_kind (before keepalived 2.0) or lvs_method: the lab's director forwards by NAT (the default)."""
    if s.args[:1] != ("NAT",):
        raise InvalidInput(f"{s.where}: {s.keyword} {' '.join(s.args)}: the lab's director runs NAT (the servers "
                           "answer through it); direct return (DR, TUN) is not modelled")
    found.used.append(f"{s.where}: {s.keyword} NAT: as the lab's director")


def _real_server(block: keepalived_tree.Statement, found: KeepalivedImport, inherited: Mapping[str, keepalived_tree.Statement]) -> None:
    children = _has_block(block)
    found.used.append(f"{block.where}: real_server {' '.join(block.args)}: the lab's primary")
    checkers = [s for s in children if s.keyword in CHECKERS]
    timers, own = dict(inherited), dict[str, Any]()
    for s in children:
        if s.keyword in INHERITED:
            _timer(timers, own, s, found)
        elif s.keyword == "inhibit_on_failure":
            _use(found, s, "inhibit_on_failure", _bool(s))
        elif s.keyword in ("lb_kind", "lvs_method"):
            _forwarding(s, found)
        elif s is (checkers[0] if checkers else None):
            continue
        else:
            _unused(found, s, "real_server")
    if not checkers:
        raise InvalidInput(f"{block.where}: real_server {' '.join(block.args)} has no checker "
                           f"({', '.join(sorted(CHECKERS))}): keepalived never takes it out, so its clients wait on "
                           "their own limits and reconnect to the dead server; the lab models a checked primary")
    _checker(checkers[0], found, timers)


def _checker(block: keepalived_tree.Statement, found: KeepalivedImport, inherited: Mapping[str, keepalived_tree.Statement]) -> None:
    """A checker's timers: its own, else its real server's, else its virtual server's, else
    keepalived's default for that checker (keepalived.conf(5))."""
    children = _has_block(block)
    _use(found, block, "check", CHECKERS[block.keyword])
    if block.keyword != "TCP_CHECK":
        found.not_modelled.append(f"{block.where}: {block.keyword}: the lab checks with its own "
                                  f"{'MySQL handshake (MISC_CHECK)' if block.keyword == 'MISC_CHECK' else 'TCP_CHECK'}")
    timers, misc_timeout, own = dict(inherited), None, dict[str, Any]()
    for s in children:
        if s.keyword in INHERITED:
            _timer(timers, own, s, found)
        elif s.keyword == "misc_timeout" and block.keyword == "MISC_CHECK":
            misc_timeout = s
        else:
            _unused(found, s, "checker")
    for key, s in timers.items():
        if key in ("connect_timeout", "delay_before_retry", "delay_loop"):
            if key == "connect_timeout" and block.keyword == "MISC_CHECK":
                continue                        # a MISC_CHECK has no connect of its own: misc_timeout below
            _use(found, s, key, _number(s, 0.1 if key != "delay_before_retry" else 0))
        else:
            _use(found, s, "retry", int(_number(s)))
    for key, value in CHECKER_DEFAULTS.get(block.keyword, {}).items():
        if key not in found.settings and not (key == "retry" and "nb_get_retry" in timers):
            set_said(found, key, value, f"{block.where}: {block.keyword}", RULE)
            found.used.append(f"{block.where}: {block.keyword}: {key} {value} (keepalived's default for {block.keyword})")
    if block.keyword == "MISC_CHECK":
        _misc_timeout(block, misc_timeout, found)


def _misc_timeout(block: keepalived_tree.Statement, misc_timeout: keepalived_tree.Statement | None, found: KeepalivedImport) -> None:
    """The script is killed (and the check failed) misc_timeout after it starts, by default delay_loop
    (check_misc.c): the lab's check fails then too. A script with a shorter timeout of its own fails
    sooner, which the lab cannot read from the file."""
    if misc_timeout is not None:
        value, said = _number(misc_timeout, 1), f"{misc_timeout.where}: misc_timeout {misc_timeout.args[0]}"
    else:
        value, said = found.settings.get("delay_loop", 60), f"{block.where}: MISC_CHECK without misc_timeout"
    set_said(found, "connect_timeout", value, said, RULE)
    found.used.append(f"{said}: connect_timeout {value:g} (keepalived kills the script then; one that gives up "
                      "sooner by itself fails sooner)")
