"""`make explain HAPROXY="inter=2 fall=3 ..."`: HAProxy in TCP mode in front. It ends the client's
connection, so the client's own kernel settings never meet the dead server: which of HAProxy's
limits, the proxy host's kernel on the server leg, or the client's read timeout ends a busy
client's wait, and when (harness/control/haproxy.py's model, the one the runs are held to)."""
from ..control.haproxy import SHUT_SESSIONS, Haproxy, closes
from ..control.haproxy_settings import TIMERS_LATE_S, HaproxySettings, markdown
from ..scenario.control import read_control
from ..scenario.files import words_as_settings
from ..scenario.reader import ScenarioError
from ..settings.kinds import SettingsError

CLIENT_LEG, PROXY, SERVER_LEG = "the client's leg", "HAProxy itself", "the server leg"


def settings_of(words):
    """HAProxy's settings from SETTING=VALUE words, checked as a scenario's `control: {haproxy: ...}` is."""
    _, settings = read_control({"control": {Haproxy.name: words_as_settings(words, "HAPROXY")}})
    return HaproxySettings(**dict(settings))


def _leg(basis):
    if "server leg" in basis:
        return SERVER_LEG
    return PROXY


def ending(settings, read_timeout_s):
    """[(seconds after the death, what, which leg)] of everything that may end a busy client's wait,
    the first first (a limit counted from the request: from the death, as the request is in flight)."""
    down = markdown(settings)
    found = [((c.at_s + c.by_s) / 2, c.basis, _leg(c.basis))
             for c in closes(settings, (down.earliest_s, down.latest_s - TIMERS_LATE_S))]
    if read_timeout_s:
        found.append((read_timeout_s, f"the application's read timeout {read_timeout_s:g} s", CLIENT_LEG))
    return sorted(found)


def checked(words):
    try:
        return settings_of(words)
    except ScenarioError as exc:         # the scenario reader's message, under the knob's name
        raise SettingsError(f"HAPROXY: {exc}") from exc


def answer(words, read_timeout_s):
    at, what, leg = ending(checked(words), read_timeout_s)[0]
    return (f"Answer: through HAProxy, {what} ends a busy client's wait after about {at:.1f} s ({leg} ends "
            "first; the client's own kernel limit never fires).")


def lines(words, read_timeout_s, client_limit):
    """client_limit: the client's own kernel limit as the rest of explain says it (what it would be
    without a proxy)."""
    settings = checked(words)
    down = markdown(settings)
    out = ["", f"HAProxy in front (TCP mode, inter {settings.inter:g} s, fall {settings.fall}): it ends the client's "
               "connection and opens its own to the server.",
           f"The client's own limit ({client_limit}) never fires: HAProxy ACKs what the client sends, "
           "so nothing of the client's goes unanswered by TCP.",
           f"HAProxy marks a silently dead server down {down.earliest_s:g}-{down.latest_s - TIMERS_LATE_S:g} s after "
           "its death (fall x check timeout + (fall-1) x fastinter, after a check within inter);",
           "new sessions then go to the backup." + ("" if settings.shutdown_sessions else
                                                    " Without on-marked-down shutdown-sessions (shutdown_sessions=true) "
                                                    "the open ones stay on the dead server.")]
    if not settings.session_timeout:
        out.append("No timeout server or tunnel: HAProxy itself never gives up on a silent server.")
    out += ["", "What may end a busy client's wait, the first one wins:"]
    first = ending(settings, read_timeout_s)
    out += [f"  {at:>8.1f} s  {leg}: {what}" for at, what, leg in first]
    if first[0][1] != SHUT_SESSIONS and not settings.shutdown_sessions:
        out.append("Cures there: shutdown_sessions=true, timeout_server=..., server_tcp_retries2=..., or the client's "
                   "read timeout.")
    return out
