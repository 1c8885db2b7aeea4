"""HAProxy's knobs as the lab exposes them, with HAProxy's own defaults (its configuration manual,
sections 4.2 and 5.2), and its timing model: when a silently dead server is marked down, and what
ends a client's wait on a session HAProxy proxies to it. docs/facts/proxies.md."""
import dataclasses

from .base import DirectorVariants, NoticeWindow

# a TCP connect; `option mysql-check` (the server's handshake read, then a close: the server counts an
# aborted connect); the same logging in as CHECK_USER (no password) and quitting
CHECKS = ("tcp", "mysql", "mysql-user")
MYSQL_HANDSHAKE_CHECKS = ("mysql", "mysql-user")   # those that speak MySQL's protocol
CHECK_USER = "haproxy_check"     # the account the database images make for it
PATRONI_CHECK = "patroni"        # `option httpchk GET /primary` on Patroni's REST API (the patroni plane's)
PATRONI_REST_PORT = 8008
# HAProxy's check timers run late on a busy director as keepalived's do (keepalived_settings.TIMERS_LATE_S)
TIMERS_LATE_S = 0.5
# The options whose line the lab writes only when set (HAProxy: off, or no timeout, when absent).
UNSET = 0


@dataclasses.dataclass(frozen=True)
class HaproxySettings(DirectorVariants):
    check: str = "tcp"
    inter: float = 2.0               # s between checks of a server that is up (HAProxy's default 2 s)
    fastinter: float = 0.0           # s between checks while a server goes down or up (0: inter)
    downinter: float = 0.0           # s between checks of a server that is down (0: inter)
    fall: int = 3                    # failed checks that mark a server down
    rise: int = 2                    # passed checks that mark it up again
    timeout_connect: float = 5.0     # HAProxy has none and warns; the lab writes 5 s unless told
    timeout_client: float = UNSET    # 0: none (HAProxy's default: infinite)
    timeout_server: float = UNSET
    timeout_tunnel: float = UNSET    # in TCP mode it supersedes client and server once data flows
    timeout_check: float = UNSET     # 0: a check's whole limit is inter
    shutdown_sessions: bool = False          # on-marked-down shutdown-sessions
    shutdown_backup_sessions: bool = False   # on-marked-up shutdown-backup-sessions (the primary's return)
    clitcpka: bool = False
    srvtcpka: bool = False
    srvtcpka_idle: float = UNSET     # s (0: the kernel's tcp_keepalive_time)
    srvtcpka_intvl: float = UNSET
    srvtcpka_cnt: int = UNSET
    tcp_ut_client: float = UNSET     # bind ... tcp-ut: TCP_USER_TIMEOUT on the client's leg, s
    tcp_ut_server: float = UNSET     # server ... tcp-ut: TCP_USER_TIMEOUT on the server leg, s
    retries: int = 3                 # connect attempts after the first that failed (HAProxy's default 3)
    redispatch: bool = False         # option redispatch: the last retry may go to another server
    nolinger: bool = False           # option nolinger: HAProxy closes with a RST instead of a FIN
    server_tcp_retries2: int = 15    # the proxy host's net.ipv4.tcp_retries2: its kernel on the server leg
    directors: tuple = ()            # ((name, {setting: value}), ...)


    @property
    def check_timeout_s(self) -> float:
        """How long a check of a silent server takes to fail: with timeout check set, its connect
        is limited by min(timeout connect, inter); without, the whole check by inter."""
        if self.timeout_check:
            return min(self.timeout_connect, self.inter) if self.timeout_connect else self.inter
        return self.inter

    @property
    def transition_interval_s(self) -> float:
        return self.fastinter or self.inter

    @property
    def session_timeout(self) -> tuple[float, str] | None:
        """(seconds, name) of the timeout that ends a session whose server went silent, or None:
        in TCP mode `timeout tunnel` supersedes `timeout server` once the session carries data."""
        if self.timeout_tunnel:
            return self.timeout_tunnel, "timeout tunnel"
        if self.timeout_server:
            return self.timeout_server, "timeout server"
        return None


def markdown(settings: HaproxySettings) -> NoticeWindow:
    """A silent server (every check's connect times out): the check in flight at the death passed,
    the next starts within one inter; each of the fall failing checks takes check_timeout_s, with
    fastinter between them (measured on 2.6.12 at inter 2 s fall 3: down 10.27 s after the death)."""
    s = settings
    failing = s.fall * s.check_timeout_s + (s.fall - 1) * s.transition_interval_s
    basis = (f"HAProxy: next check within inter {s.inter:g} s, then {s.fall} check(s) timing out after "
             f"{s.check_timeout_s:g} s, {s.fall - 1} wait(s) of {s.transition_interval_s:g} s (fall {s.fall})")
    return NoticeWindow(s.inter / 2 + failing, failing, s.inter + failing + TIMERS_LATE_S, basis)
