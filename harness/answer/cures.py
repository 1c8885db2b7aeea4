"""The changes that could have cut the operator's hang, on every layer: the driver's own limits, the
socket's, the host's kernel, the control plane's timers and resets, and the pair of the best
client limit with the best control-plane change. Each is a change of the question (question.py),
with what it costs besides the time it saves; ranked by the model (ranking.py), then measured in the
same order by a replay, each as a cell of one failover."""
import dataclasses
from collections.abc import Sequence
from typing import Any

from ..control import CONTROL_PLANES
from ..load.clients import CLIENTS, DEFAULT_CLIENT
from ..setting import Setting
from .question import Question

DRIVER, SOCKET, HOST, DIRECTOR, PAIR = "driver", "socket", "host", "load balancer", "pair"
LIMIT_S = 3                      # the read and connect timeout a cure sets, in each driver's own unit
USER_TIMEOUT_MS = 3000
KEEPALIVE = "5/1/3"
TTL, NAME_TTL_S = "networkaddress.cache.ttl", 5      # the JVM's cache of names, and the TTL a cure sets
LOWER_RETRIES2 = (8, 5)
# Checks a few seconds apart: keepalived takes a silent server out 5-10.5 s after its death
# (delay_loop 5, two 2 s connects, one 1 s wait), HAProxy marks it down 3-4.5 s after (inter 1, fall 2).
FAST_KEEPALIVED = (("delay_loop", 5.0), ("connect_timeout", 2.0), ("retry", 1), ("delay_before_retry", 1.0))
FAST_HAPROXY = (("inter", 1.0), ("fall", 2))


@dataclasses.dataclass(frozen=True)
class Cure:
    name: str                 # a replay's cell for it is called so
    layer: str
    change: str               # what changes, in its owner's words
    cost: str                 # what it costs besides the time it saves
    cell: tuple = ()          # ((key, value), ...) it sets in the cell's definition (a driver's settings merged)
    director: tuple = ()      # ((setting, value), ...) it sets in the control plane's settings
    variant: str = ""         # the name of the director that runs it in a replay (a director's cure, a pair)

    def applied(self, question: Question) -> Question:
        changed = question.with_cell(**dict(self.cell)) if self.cell else question
        return changed.with_plane_settings(**dict(self.director)) if self.director else changed


def _in_unit(setting: Setting, seconds: float) -> str | int:
    return f"{seconds}s" if setting.kind == "go_duration" else round(seconds / setting.unit_s)


def driver_cures(question: Question) -> tuple[list[Cure], list[str]]:
    """(cures, left out) of the driver's own limits: a read timeout, a connect timeout."""
    cell, client = question.cell, CLIENTS[question.cell.client]
    found, left_out = [], []
    read: tuple[tuple[str, Any], str] | None     # ((the cell's key, its value), in words)
    if cell.client == DEFAULT_CLIENT:
        read = ("read_timeout_s", LIMIT_S), f"read_timeout={LIMIT_S} (PyMySQL)"
    elif client.read_timeout:
        value = _in_unit(client.settings[client.read_timeout], LIMIT_S)
        read = (cell.client, {client.read_timeout: value}), f"{client.read_timeout}={value}"
    else:
        read = None
        left_out.append(f"{cell.client} has no read timeout of its own")
    if read and not 0 < cell.read_timeout_s <= LIMIT_S:
        found.append(Cure(f"read-timeout-{LIMIT_S}s", DRIVER, read[1], f"a query slower than {LIMIT_S} s is cut too",
                          (read[0],)))
    elif read:
        left_out.append(f"a read timeout of {LIMIT_S} s: yours is {cell.read_timeout_s:g} s already")
    timeout = client.connect_timeout_s(cell.client_settings)
    if client.connect_timeout and not (timeout and timeout <= LIMIT_S):
        value = _in_unit(client.settings[client.connect_timeout], LIMIT_S)
        found.append(Cure(f"connect-timeout-{LIMIT_S}s", DRIVER, f"{client.connect_timeout}={value}",
                          f"a connect slower than {LIMIT_S} s (a busy server's accept queue) fails and is tried again",
                          ((cell.client, {client.connect_timeout: value}),)))
    found += name_cache_cures(question)
    return found, left_out


def name_cache_cures(question: Question) -> list[Cure]:
    """Where the clients connect to a name (control: dns), a JVM that keeps the old address a shorter
    time: networkaddress.cache.ttl=5 where it keeps it longer (its default 30 s)."""
    cell = question.cell
    if question.plane != "dns" or CLIENTS[cell.client].runtime != "JVM":
        return []
    ttl = dict(cell.client_settings).get(TTL)
    if ttl is not None and 0 <= ttl <= NAME_TTL_S:
        return []
    return [Cure(f"jvm-name-ttl-{NAME_TTL_S}s", DRIVER, f"{TTL}={NAME_TTL_S} (the JVM's security property)",
                 f"every name the JVM connects to is looked up again after {NAME_TTL_S} s",
                 ((cell.client, {TTL: NAME_TTL_S}),))]


def socket_cures(question: Question) -> tuple[list[Cure], list[str]]:
    cell = question.cell
    if _proxied(question):
        return [], ["TCP_USER_TIMEOUT, keepalive and tcp_retries2 on the client: through a proxy the client's own "
                    "kernel never gives up (the proxy ACKs all it sends)"]
    if not cell.socket_options_reach_kernel:
        return [], [f"TCP_USER_TIMEOUT and keepalive: {cell.client} does not connect through libc, so the lab "
                    "cannot set them from outside (set them in the program)"]
    found = []
    if not 0 < cell.tcp_user_timeout_ms <= USER_TIMEOUT_MS:
        found.append(Cure(f"user-timeout-{USER_TIMEOUT_MS}ms", SOCKET,
                          f"TCP_USER_TIMEOUT={USER_TIMEOUT_MS} ms on the socket",
                          f"a connection whose sent data stays unacknowledged {USER_TIMEOUT_MS / 1000:g} s (a congested "
                          "or lossy path's stall) is cut too", (("tcp_user_timeout_ms", USER_TIMEOUT_MS),)))
    if not cell.keepalive:
        found.append(Cure("keepalive-" + KEEPALIVE.replace("/", "-"), SOCKET, f"SO_KEEPALIVE {KEEPALIVE} on the socket",
                          "probes on idle connections every second; does nothing for a query in flight",
                          (("keepalive", KEEPALIVE),)))
    return found, []


def host_cures(question: Question) -> tuple[list[Cure], list[str]]:
    if _proxied(question):
        return [], []
    retries2 = question.cell.knob("tcp_retries2")
    found = [Cure(f"retries2-{n}", HOST, f"net.ipv4.tcp_retries2={n} on the client's host",
                  f"every connection of the host's namespace gives up after ~{'100' if n == 8 else '13'} s of "
                  "retransmissions, a slow path's too", (("tcp_retries2", n),))
             for n in LOWER_RETRIES2 if n < retries2]
    return found, [f"tcp_retries2={n}: not below yours ({retries2})" for n in LOWER_RETRIES2 if n >= retries2]


def _proxied(question: Question) -> bool:
    return CONTROL_PLANES[question.plane].proxies


def director_cures(question: Question) -> tuple[list[Cure], list[str]]:
    """The control plane's own: its timers and what its change does to open flows."""
    settings, plane = dict(question.plane_settings), question.plane
    found = []
    if plane == "keepalived":
        if not settings.get("expire_nodest_conn"):
            found.append(Cure("director-reset", DIRECTOR, "net.ipv4.vs.expire_nodest_conn=1 on the director",
                              "the flows of any server taken out are reset, a drained one's too",
                              director=(("expire_nodest_conn", 1),), variant="reset"))
        if any(settings.get(key, default) > fast for (key, fast), default in zip(FAST_KEEPALIVED, (60.0, 5.0, 1, 1.0))):
            found.append(Cure("keepalived-fast-checks", DIRECTOR, "keepalived: delay_loop 5, connect_timeout 2, "
                              "retry 1, delay_before_retry 1", "a check every 5 s per real server; a slow server "
                              "(a 2 s connect) is taken out too", director=FAST_KEEPALIVED, variant="fast-checks"))
    elif plane in ("haproxy", "patroni"):
        if not settings.get("shutdown_sessions"):
            found.append(Cure("haproxy-shutdown", DIRECTOR, "on-marked-down shutdown-sessions on HAProxy",
                              "a session is cut whenever its server is marked down, by a flapping check too",
                              director=(("shutdown_sessions", True),), variant="shutdown"))
        if not 0 < settings.get("timeout_server", 0) <= 10:
            found.append(Cure("haproxy-tserver-10s", DIRECTOR, "timeout server 10s on HAProxy",
                              "a query that runs longer than 10 s without an answer is cut by HAProxy",
                              director=(("timeout_server", 10.0),), variant="tserver"))
        if settings.get("server_tcp_retries2", 15) > 5:
            found.append(Cure("haproxy-host-retries2-5", DIRECTOR, "net.ipv4.tcp_retries2=5 on the HAProxy host",
                              "every server-side connection of the proxy host gives up after ~13 s of "
                              "retransmissions", director=(("server_tcp_retries2", 5),), variant="serverleg"))
        if settings.get("inter", 2.0) > 1.0 or settings.get("fall", 3) > 2:
            found.append(Cure("haproxy-fast-checks", DIRECTOR, "HAProxy: inter 1s fall 2",
                              "a check every second per server; two lost checks mark a server down",
                              director=FAST_HAPROXY, variant="fast-checks"))
    if plane == "dns" and question.promoted_after_s is not None:
        return found, ["the promotion: when it comes is the failover's own (PROMOTED_AFTER_S), no setting of the lab's"]
    if plane == "dns":
        if settings.get("cache", "none") != "none":
            found.append(Cure("no-name-cache", DIRECTOR, f"{settings['cache']}'s hosts cache off (enable-cache hosts no)",
                              "every lookup asks the name server: its load, and its latency on each connect",
                              director=(("cache", "none"),), variant="no-name-cache"))
        return found, ["the name: when it moves is the failover's own (DNS_MOVED_AFTER_S), no setting of the lab's"]
    return found, ([] if found or plane not in ("manual",) else
                   ["the load balancer: the seed's operator swaps it at the death already"])


def cures_for(question: Question) -> tuple[list[Cure], list[str]]:
    """(cures, [why one is left out]) on every layer, the pair last (ranking.py adds it)."""
    found: list[Cure] = []
    left_out: list[str] = []
    for layer in (driver_cures, socket_cures, host_cures, director_cures):
        cures, why = layer(question)
        found += cures
        left_out += why
    return found, left_out


def pair(client_cures: Sequence[Cure], director_cure: Cure) -> Cure:
    """The client's limits (a read and a connect timeout, or the best one) with the best change of
    the control plane, as one cure."""
    cell: dict[str, Any] = {}
    for cure in client_cures:
        for key, value in cure.cell:
            cell[key] = {**cell.get(key, {}), **value} if isinstance(value, dict) else value
    changes = [c.change for c in client_cures] + [director_cure.change]
    return Cure("pair", PAIR, " + ".join(changes), "; ".join([c.cost for c in client_cures] + [director_cure.cost]),
                tuple(cell.items()), director_cure.director, director_cure.variant)
