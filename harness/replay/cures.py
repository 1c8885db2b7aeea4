"""The changes a replay measures beside the operator's own settings, each as a cell of the same
failover, with what it costs. A cure is kept out where it cannot act on this client (a preloaded
TCP_USER_TIMEOUT never reaches a Go program's sockets), and said so."""
import dataclasses

from ..load.clients import CLIENTS

# A read timeout of this many seconds, in the unit of each driver's own setting.
READ_TIMEOUT_S = 3
READ_TIMEOUT_VALUE = {"jdbc": 3000, "hikari": 3000, "go": "3s", "node": 3000, "libmariadb": 3}


@dataclasses.dataclass(frozen=True)
class Cure:
    name: str                 # the cell's name: what the page and the ranking call it
    change: str               # what is changed, in words
    cost: str                 # what it costs besides the time it saves
    cell: dict                # the keys this cure sets on the operator's cell


def haproxy_cures(settings):
    """(cures, {variant: HAProxy settings over the operator's}) on HAProxy's side, each a director of
    its own: those the operator's haproxy.cfg does not have already."""
    out, variants = [], {}
    if not settings.get("shutdown_sessions"):
        out.append(Cure("haproxy-shutdown", "on-marked-down shutdown-sessions on HAProxy",
                        "a session is cut whenever its server is marked down, by a flapping check too",
                        {"director": "shutdown"}))
        variants["shutdown"] = {"shutdown_sessions": True}
    if not 0 < settings.get("timeout_server", 0) <= 10:
        out.append(Cure("haproxy-tserver-10s", "timeout server 10s on HAProxy",
                        "a query that runs longer than 10 s without an answer is cut by HAProxy",
                        {"director": "tserver"}))
        variants["tserver"] = {"timeout_server": 10}
    if settings.get("server_tcp_retries2", 15) > 5:
        out.append(Cure("haproxy-host-retries2-5", "net.ipv4.tcp_retries2=5 on the HAProxy host",
                        "every server-side connection of the proxy host gives up after ~13 s of retransmissions",
                        {"director": "serverleg"}))
        variants["serverleg"] = {"server_tcp_retries2": 5}
    return tuple(out), variants


def cures_for(client, retries2=15, director="keepalived"):
    """(cures, [why a cure is left out]) for the operator's client; a lower tcp_retries2 is a cure
    only below the operator's own."""
    out, left_out = [], []
    spec = CLIENTS[client]
    if client == "pymysql":
        out.append(Cure("read-timeout-3s", f"read_timeout={READ_TIMEOUT_S} (PyMySQL)",
                        "a query slower than 3 s is cut too", {"read_timeout_s": READ_TIMEOUT_S}))
    elif spec.read_timeout:
        out.append(Cure("read-timeout-3s", f"{spec.read_timeout}={READ_TIMEOUT_VALUE[client]}",
                        "a query slower than 3 s is cut too", {client: {spec.read_timeout: READ_TIMEOUT_VALUE[client]}}))
    else:
        left_out.append(f"{client} has no read timeout of its own")
    if spec.via_libc:
        out.append(Cure("user-timeout-3s", "TCP_USER_TIMEOUT=3000 ms on the socket",
                        "a connection whose sent data stays unacknowledged 3 s (a congested or lossy path) is "
                        "cut too", {"tcp_user_timeout_ms": 3000}))
    else:
        left_out.append(f"TCP_USER_TIMEOUT: {client} does not connect through libc, so the lab cannot set it from "
                        "outside (set it in the program)")
    lower = [Cure("retries2-8", "net.ipv4.tcp_retries2=8 on the client's host",
                  "every connection of the host gives up after ~100 s of retransmissions, a slow path's too",
                  {"tcp_retries2": 8}),
             Cure("retries2-5", "net.ipv4.tcp_retries2=5 on the client's host",
                  "every connection of the host gives up after ~13 s of retransmissions: a path that loses "
                  "packets for that long drops its connections", {"tcp_retries2": 5})]
    out += [cure for cure in lower if cure.cell["tcp_retries2"] < retries2]
    left_out += [f"tcp_retries2={cure.cell['tcp_retries2']}: not below yours ({retries2})" for cure in lower
                 if cure.cell["tcp_retries2"] >= retries2]
    if director == "keepalived":
        out += [Cure("director-reset", "net.ipv4.vs.expire_nodest_conn=1 on the director",
                     "none for the client; the director resets the flows of any server taken out, a drained one's too",
                     {"director": "reset"})]
    if spec.via_libc:
        out.append(Cure("keepalive-5-1-3", "SO_KEEPALIVE 5/1/3 on the socket",
                        "three probes a second on idle connections; acts only while nothing is outstanding",
                        {"keepalive": "5/1/3"}))
    return tuple(out), left_out
