"""`make explain HAPROXY="inter=2 fall=3 ..."`: HAProxy in TCP mode in front. It ends the client's
connection, so the client's own kernel settings never meet the dead server: its checks, its
limits, the proxy host's kernel on the server leg, or the client's read timeout end a busy client's
wait (harness/control/haproxy.py's model, the one the runs are held to; the answer's limits list
them). What follows here is the part only HAProxy has: its markdown and what it does with the
sessions of a server it marks down."""
from typing import Any

from ..control.haproxy import Haproxy
from ..control.haproxy_settings import TIMERS_LATE_S, HaproxySettings, markdown
from ..scenario.control import read_control
from ..scenario.files import words_as_settings
from ..scenario.reader import ScenarioError
from ..settings.kinds import SettingsError
from .question import Question


def control_settings(words: str) -> tuple[tuple[str, Any], ...]:
    """((setting, value), ...) from SETTING=VALUE words, checked as a scenario's `control: {haproxy:
    ...}` is."""
    try:
        _, settings = read_control({"control": {Haproxy.name: words_as_settings(words, "HAPROXY")}})
    except ScenarioError as exc:         # the scenario reader's message, under the knob's name
        raise SettingsError(f"HAPROXY: {exc}") from exc
    return tuple(settings)


def settings_of(words: str) -> HaproxySettings:
    return HaproxySettings(**dict(control_settings(words)))


def lines(question: Question) -> list[str]:
    settings = HaproxySettings(**{k: v for k, v in question.plane_settings if k != "directors"})
    down = markdown(settings)
    out = ["", f"HAProxy in front (TCP mode, inter {settings.inter:g} s, fall {settings.fall}): it ends the client's "
               "connection and opens its own to the server, so nothing the client sends goes unacknowledged.",
           f"HAProxy marks a silently dead server down {down.earliest_s:g}-{down.latest_s - TIMERS_LATE_S:g} s after "
           "its death (fall x check timeout + (fall-1) x fastinter, after a check within inter);",
           "new sessions then go to the other server." + ("" if settings.shutdown_sessions else
                                                         " Without on-marked-down shutdown-sessions the open ones "
                                                         "stay on the dead server.")]
    if not settings.session_timeout:
        out.append("No timeout server or tunnel: HAProxy itself never gives up on a silent server.")
    return out
