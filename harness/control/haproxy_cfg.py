"""haproxy.cfg for a lab director, as text: in TCP mode, a frontend per service the run uses on
the director's own address, its backend the primary with the replica as a `backup` server, the
scenario's checks, timeouts and options. Pure: the director's entrypoint writes it and runs
`haproxy -c` on it before starting (images/director/director-start)."""
from collections.abc import Mapping

from .haproxy_settings import CHECK_USER, PATRONI_CHECK, PATRONI_REST_PORT, HaproxySettings

PORTS = {"mysql": 3306, "web": 80}
STATS_SOCKET = "/run/haproxy.sock"
SERVER_NAMES = ("primary", "standby")


def duration(seconds: float) -> str:
    """HAProxy's time format, exact: whole seconds as '2s', anything else in milliseconds."""
    ms = round(seconds * 1000)
    return f"{ms // 1000}s" if ms % 1000 == 0 else f"{ms}ms"


def _defaults(s: HaproxySettings) -> list[str]:
    lines = ["mode tcp", "log global", "option tcplog", "option log-health-checks",
             f"timeout connect {duration(s.timeout_connect)}", f"retries {s.retries}"]
    for name in ("client", "server", "tunnel", "check"):
        value = getattr(s, f"timeout_{name}")
        if value:
            lines.append(f"timeout {name} {duration(value)}")
    for option in ("redispatch", "clitcpka", "srvtcpka", "nolinger"):
        if getattr(s, option):
            lines.append(f"option {option}")
    for name in ("idle", "intvl"):
        value = getattr(s, f"srvtcpka_{name}")
        if value:
            lines.append(f"srvtcpka-{name} {duration(value)}")
    if s.srvtcpka_cnt:
        lines.append(f"srvtcpka-cnt {s.srvtcpka_cnt}")
    return lines


def _check_timers(s: HaproxySettings) -> str:
    timers = [f"inter {duration(s.inter)}"]
    if s.fastinter:
        timers.append(f"fastinter {duration(s.fastinter)}")
    if s.downinter:
        timers.append(f"downinter {duration(s.downinter)}")
    timers += [f"fall {s.fall}", f"rise {s.rise}"]
    if s.shutdown_sessions:
        timers.append("on-marked-down shutdown-sessions")
    if s.tcp_ut_server:
        timers.append(f"tcp-ut {duration(s.tcp_ut_server)}")
    return " ".join(timers)  # the options every server of a backend shares


def config(settings: HaproxySettings, name: str, servers: Mapping[str, tuple[str, str]]) -> str:
    """servers: {service: (primary address, standby address)} on the back network."""
    s = settings
    lines = ["global", "    log stdout format raw local0 info",
             f"    stats socket {STATS_SOCKET} mode 600 level admin",
             f"    # director {name}", "defaults", *(f"    {line}" for line in _defaults(s))]
    bind_options = f" tcp-ut {duration(s.tcp_ut_client)}" if s.tcp_ut_client else ""
    for service, (primary, standby) in servers.items():
        port = PORTS[service]
        lines += [f"frontend {service}", f"    bind :{port}{bind_options}", f"    default_backend {service}",
                  f"backend {service}"]
        rest = ""
        if s.check == "mysql" and service == "mysql":
            lines.append("    option mysql-check")
        if s.check == "mysql-user" and service == "mysql":
            lines.append(f"    option mysql-check user {CHECK_USER} post-41")
        if s.check == PATRONI_CHECK and service == "mysql":      # 200 from the leader only (Patroni's REST API)
            lines += ["    option httpchk GET /primary", "    http-check expect status 200"]
            rest = f" port {PATRONI_REST_PORT}"
        lines.append(f"    default-server check{rest} {_check_timers(s)}")
        up = " on-marked-up shutdown-backup-sessions" if s.shutdown_backup_sessions else ""
        lines += [f"    server {SERVER_NAMES[0]} {primary}:{port}{up}",
                  f"    server {SERVER_NAMES[1]} {standby}:{port} backup"]
    return "\n".join(lines) + "\n"
