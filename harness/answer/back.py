"""When a client works again after its error: it reconnects at once, through the VIP. A connect made
before the control plane changed the director meets the dead server. Its SYNs go on being dropped
after the change: the director keeps the connect's own entry on the dead server (IPVS drops the
packets of an entry whose server was removed, unless expire_nodest_conn=1 reschedules them; its
SYN_RECV entry lives 60 s after the last SYN it forwarded; conntrack keeps its DNAT while SYNs keep
coming). So the client gets through with the first SYN after the change that the director schedules
anew: the first of a new connect, begun when the driver's connect timeout or the kernel's SYN
retries (tcp_syn_retries, +tcp_syn_linear_timeouts on 6.5+: 127 s or 131 s at the defaults) end the
attempt; with IPVS also a retransmission after the entry expired, or after the removal with
expire_nodest_conn=1. Through a proxy the client's connect always succeeds; the proxy's session to a
server does once the dead one is marked down. docs/facts/kernel.md, "SYN retransmissions"."""
import dataclasses
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..control.abilities import ConnectsByName
from ..control.base import ControlPlane, NoticeWindow
from ..databases import DATABASES
from ..load.clients import CLIENTS, DEFAULT_CLIENT
from ..measure import syn_model
from ..measure.predict import Window
from . import back_by_name, back_host_list
from .question import Question

# From the connect that gets through to the first answer: a handshake and a login on a live server,
# expected a tenth of a second; a JVM's first query on a new connection took up to ~1 s in the lab.
RECONNECT_S, RECONNECT_LATE_S = 0.1, 1.0
IPVS_SYN_RECV_S = 60.0          # IPVS's timeout of an entry in SYN_RECV (net/netfilter/ipvs/ip_vs_proto_tcp.c)
# HikariCP's defaults (its README): validationTimeout 5000 ms, aliveBypassWindowMs 500 ms
HIKARI_VALIDATION_S, HIKARI_BYPASS_S = 5.0, 0.5
POOLED = ("hikari", "hikari-pgjdbc")


@dataclasses.dataclass(frozen=True)
class Reconnect:
    attempt_s: float            # how long one connect into the dead server lasts
    ends: str                   # what ends it, in the owner's words
    linear: int                 # tcp_syn_linear_timeouts: the SYNs' ladder
    ipvs: bool                  # the director is IPVS (its entry of the connect expires; conntrack's does not)
    rescheduled: bool           # expire_nodest_conn=1: a SYN after the removal is scheduled anew

    def syns(self, start: float) -> list[float]:
        """When an attempt begun at `start` sends its SYNs."""
        return [start] + [start + t for t in syn_model.syn_retransmit_times(self.linear, 20) if t < self.attempt_s]

    def through_at(self, error_s: float, change_s: float) -> float:
        """When a connect gets through, attempts beginning at the error and one after another."""
        start = error_s
        while True:
            if start >= change_s:
                return start
            sends = self.syns(start)
            forwarded = [t for t in sends if t < change_s]
            late = [t for t in sends if t >= change_s]
            if self.rescheduled and late:
                return late[0]
            if self.ipvs:
                expired = [t for t in late if t >= forwarded[-1] + IPVS_SYN_RECV_S]
                if expired:
                    return expired[0]
            start += self.attempt_s


def reconnect(question: Question, plane: ControlPlane, rescheduled: bool) -> Reconnect:
    cell, client = question.cell, CLIENTS[question.cell.client]
    retries = cell.knob("tcp_syn_retries")
    syn = syn_model.syn_give_up_s(retries, question.syn_linear_timeouts)
    timeout = client.connect_timeout_s(cell.client_settings)
    if cell.client == DEFAULT_CLIENT and cell.connect_timeout_s is not None:    # the lab's probe's own limit
        timeout = DATABASES[question.engine]().probe_connect_timeout_s(cell.connect_timeout_s) or None
    user = cell.tcp_user_timeout_ms / 1000 if cell.socket_options_reach_kernel else 0.0
    named = client.connect_timeout or "its connect timeout"
    if timeout is None and cell.client in POOLED:
        # HikariCP sets the driver's login timeout to connectionTimeout (PoolBase.setLoginTimeout:
        # whole seconds of 500 ms + it), which bounds a connect its own connectTimeout leaves open
        timeout = float(max(1, (500 + dict(cell.client_settings).get("connectionTimeout", 30000)) // 1000))
        named = "HikariCP's connectionTimeout, as the driver's login timeout,"
    if timeout and timeout < syn and not (user and user <= timeout):
        attempt, ends = timeout, f"{named} {timeout:g} s"
    elif user and user < syn:               # TCP_USER_TIMEOUT ends a connect too (Linux 5.4+, a41e8a88b06e)
        attempt, ends = user, f"TCP_USER_TIMEOUT {user:g} s on the connect"
    else:
        attempt, ends = syn, f"tcp_syn_retries={retries}: {syn:g} s"
    return Reconnect(attempt, ends, question.syn_linear_timeouts, bool(plane.needs_ipvs), rescheduled)


def pool_s(question: Question, error_s: float) -> tuple[float, str]:
    """(seconds the pool's other connections hold the client after its error, why) for a HikariCP
    pool of N > 1: the fault caught them idle and dead, and the pool hands out every one before a
    new connection. Checked before a borrow (idle longer than aliveBypassWindowMs), each costs
    validationTimeout; with the check skipped, each one's query waits out the error again. Measured
    (client-zoo-short, a pool of 3 at tcp_retries2=5: back after 23.7 s, 40.8 s with the check
    skipped; a replay of a pool of 10 behind keepalived, 2026-12-03: back after 53.9 s and 53.5 s,
    the model without the pool said 9.1 s and 134.1 s)."""
    cell = question.cell
    if cell.client not in POOLED:
        return 0.0, ""
    settings = dict(cell.client_settings)
    others = int(settings.get("maximumPoolSize", 1)) - 1
    if others <= 0:
        return 0.0, ""
    bypass_s = settings.get("aliveBypassWindowMs", HIKARI_BYPASS_S * 1000) / 1000
    if bypass_s > 10.0:         # the idle connections are handed out unchecked
        return others * error_s, (f"then each of the pool's {others} other connections, dead and handed out "
                                  f"unchecked (aliveBypassWindowMs {bypass_s:g} s), fails its query the same way")
    validation = settings.get("validationTimeout", HIKARI_VALIDATION_S * 1000) / 1000
    return others * validation, (f"then the pool checks its {others} other connections, each dead, for "
                                 f"validationTimeout {validation:g} s each before it opens a new one")


def back(error: Window, change: NoticeWindow | None, question: Question, plane: ControlPlane,
         rescheduled: bool) -> Window | None:
    """Window of the client's first answer again, seconds after the death; None where the model
    cannot say (no error, or no model of when the control plane changes the director)."""
    if error.expected_s is None or change is None:
        return None
    if isinstance(plane, ConnectsByName):
        return _back_by_name(error, change, question, plane)
    through: Callable[[float, float], float]
    if plane.proxies:
        through, how = max, "a new session through the proxy goes to a live server once the dead one is marked down"
    else:
        way = reconnect(question, plane, rescheduled)
        through = way.through_at
        how = f"a connect begun before the change waits out its attempt ({way.ends}), then a new one gets through"
    held, pool_how = pool_s(question, error.expected_s)
    if held:
        how += f"; {pool_how}"

    def at(error_s: float, change_s: float) -> float:
        return max(through(error_s, change_s), error_s + held)

    bounds = error.bounds()
    corners = [at(e, c) for e in bounds for c in (change.earliest_s, change.expected_s, change.latest_s)]
    expected = at(bounds[1], change.expected_s) + RECONNECT_S
    return Window(expected, min(corners), max(corners) + RECONNECT_LATE_S,
                  f"the client reconnects after its error; {how}")


def _back_by_host_list(error: Window, promoted_s: float, question: Question, plane: ControlPlane) -> Window:
    """back() for a client that lists both servers by their own names (back_host_list)."""
    way = reconnect(question, plane, rescheduled=False)
    writable, setting = back_host_list.keeps_writable(question.cell)
    denied = back_host_list.denied_s(question.cell)
    how = back_host_list.words(way, writable, setting, question.cell.client, denied)

    def at(error_s: float) -> float:
        return back_host_list.through_at(way.attempt_s, error_s, promoted_s, writable, denied)

    bounds = error.bounds()
    corners = [at(e) for e in bounds]
    return Window(at(bounds[1]) + RECONNECT_S, min(corners), max(corners) + RECONNECT_LATE_S,
                  f"the client reconnects after its error; {how}")


@runtime_checkable
class CachesNames(Protocol):
    """A plane whose name a caching daemon on the clients' host may answer (control: dns)."""
    @property
    def name_cache(self) -> str | None: ...

    @property
    def ttl_s(self) -> int: ...


def _back_by_name(error: Window, change: NoticeWindow, question: Question, plane: ControlPlane) -> Window:
    """back() where the clients connect to a name: the change is the name's move; each reconnect's
    lookup goes through the client's own cache (back_by_name)."""
    if question.cell.hosts:
        return _back_by_host_list(error, change.expected_s, question, plane)
    way = reconnect(question, plane, rescheduled=False)
    daemon = plane.name_cache if isinstance(plane, CachesNames) else None
    ttl, cache_words = back_by_name.cache_ttl_s(question.cell, daemon if back_by_name.asks_getaddrinfo(
        question.cell.client) else None)
    if daemon and isinstance(plane, CachesNames) and back_by_name.asks_getaddrinfo(question.cell.client):
        expected, earliest, latest = back_by_name.nscd_window(change.expected_s, plane.ttl_s)
        change = dataclasses.replace(change, expected_s=expected, earliest_s=earliest, latest_s=latest)
    how = (f"each connect looks the name up ({cache_words}); one that gets the old address waits out its "
           f"attempt ({way.ends})")
    if ttl is None:
        return Window(None, None, None, f"never: {cache_words}, so every connect goes on to the old address")
    bounds = error.bounds()
    held, pool_how = pool_s(question, bounds[1])
    if held:
        how += f"; {pool_how}"

    def at(error_s: float, change_s: float) -> tuple[float, ...]:
        """(expected, earliest, latest) through, no sooner than the pool's other connections let go."""
        return tuple(max(t, error_s + held) for t in back_by_name.back_window(way.attempt_s, ttl, error_s, change_s))

    corners = [at(e, c) for e in bounds for c in (change.earliest_s, change.expected_s, change.latest_s)]
    expected = at(bounds[1], change.expected_s)[0]
    return Window(expected + RECONNECT_S, min(c[1] for c in corners), max(c[2] for c in corners) + RECONNECT_LATE_S,
                  f"the client reconnects after its error; {how}")
