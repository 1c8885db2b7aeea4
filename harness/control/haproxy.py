"""HAProxy as the director, in TCP mode: a proxy in place of the datapath (no IPVS, no DNAT). It
ends each client's connection and opens its own to the server, so the client's kernel settings
never meet the dead server: what ends a client's wait is HAProxy's (its markdown with
shutdown-sessions, its timeout server or tunnel) or the proxy host's kernel on the server leg.
Its checks take a silent primary down and send new sessions to the replica, a `backup` server.
docs/facts/proxies.md."""
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..measure import haproxy_log, kernel_model
from ..measure.effects import APP_HANG, BLACKHOLE, Close, Effect
from ..topology import BACK, DIRECTOR, FRONT, SERVICE_SERVERS
from . import haproxy_cfg
from .base import (
    Addresses, ControlPlane, DirectorChange, NoticeWindow, PromotingDatabase, RunFiles, Setting,
    VersionCommands)
from .haproxy_settings import CHECKS, HaproxySettings, markdown
from .keepalived import MAX_VARIANTS, VARIANT_HOSTS, bounded_by_table

# `show servers state` on the runtime API: which servers HAProxy is sending new sessions to
STATE_SAMPLE = f"echo 'show servers state' | socat stdio unix-connect:{haproxy_cfg.STATS_SOCKET}"
DURATION_HELP = "s (0: unset, HAProxy's default: none)"


def _spec() -> dict[str, Setting]:
    d = HaproxySettings()
    timeouts = {f"timeout_{name}": Setting("duration", getattr(d, f"timeout_{name}"), 0, 86400,
                                            help=f"timeout {name}, {DURATION_HELP}")
                for name in ("client", "server", "tunnel", "check")}
    flags = {"shutdown_sessions": "on-marked-down shutdown-sessions: close a down server's sessions",
             "shutdown_backup_sessions": "on-marked-up shutdown-backup-sessions: close the backup's sessions "
                                         "when the primary is up again",
             "clitcpka": "option clitcpka: keepalive on the client's leg",
             "srvtcpka": "option srvtcpka: keepalive on the server leg",
             "nolinger": "option nolinger: close with a RST instead of a FIN",
             "redispatch": "option redispatch: a session's last connect retry may go to another server"}
    spec = {
        "check": Setting("str", d.check, choices=CHECKS, help="tcp: a connect; mysql: option mysql-check; mysql-user: the same "
                                                          "logging in as haproxy_check"),
        "inter": Setting("duration", d.inter, 0.1, 3600, help="s between checks of a server that is up"),
        "fastinter": Setting("duration", d.fastinter, 0, 3600, help="s between checks in transition (0: inter)"),
        "downinter": Setting("duration", d.downinter, 0, 3600, help="s between checks of a down server (0: inter)"),
        "fall": Setting("int", d.fall, 1, 100, help="failed checks that mark a server down"),
        "rise": Setting("int", d.rise, 1, 100, help="passed checks that mark it up"),
        "timeout_connect": Setting("duration", d.timeout_connect, 0.1, 3600, help="timeout connect, s"),
        "retries": Setting("int", d.retries, 0, 100, help="connect attempts after a failed first one"),
        **timeouts,
        **{name: Setting("bool", False, help=text) for name, text in flags.items()},
        "srvtcpka_idle": Setting("duration", 0.0, 0, 86400, help=f"srvtcpka-idle, {DURATION_HELP}"),
        "srvtcpka_intvl": Setting("duration", 0.0, 0, 86400, help=f"srvtcpka-intvl, {DURATION_HELP}"),
        "srvtcpka_cnt": Setting("int", 0, 0, 100, help="srvtcpka-cnt (0: unset)"),
        "tcp_ut_client": Setting("duration", 0.0, 0, 86400, help=f"bind tcp-ut (client's leg), {DURATION_HELP}"),
        "tcp_ut_server": Setting("duration", 0.0, 0, 86400, help=f"server tcp-ut (server leg), {DURATION_HELP}; "
                                 "2.6.12 accepts it, but it ended no session here"),
        "server_tcp_retries2": Setting("int", d.server_tcp_retries2, 1, 30,
                                       help="the proxy host's net.ipv4.tcp_retries2 (its kernel on the server leg)"),
    }
    spec["directors"] = Setting("variants", (), maximum=MAX_VARIANTS,
                                choices=tuple(k for k in spec if k != "check"),
                                help="more directors, each its own HAProxy and address: {name: {setting: value}}")
    return spec


class Haproxy(ControlPlane):
    name = "haproxy"
    acts_by_itself = True
    proxies = True
    settings_spec = _spec()

    def __init__(self, settings: Iterable[tuple[str, Any]] = ()) -> None:
        super().__init__(settings)
        values = {k: v for k, v in self.settings.items() if k in self.settings_spec}
        values["directors"] = tuple((name, dict(over)) for name, over in values.get("directors", ()))
        self.config = HaproxySettings(**values)

    def directors(self) -> dict[str, str | None]:
        return {DIRECTOR: None, **{f"{DIRECTOR}-{name}": name for name in self.config.variants()}}

    def table_sample(self, datapath: str) -> str:
        return STATE_SAMPLE

    def lab_settings(self) -> dict[str, str]:
        return {"LB_CONTROL": self.name}

    def version_commands(self) -> VersionCommands:
        return (("haproxy", DIRECTOR, ("haproxy", "-v")),)

    def services(self, addresses: Addresses, database: PromotingDatabase, servers: Sequence[str]) -> dict[str, Any]:
        """Each director's haproxy.cfg (the main one's at the VIP, each variant at its own address)
        and its kernel's tcp_retries2; no service of the datapath's (LB_SERVICES empty)."""
        pairs = {service: (addresses[primary][BACK], addresses[standby][BACK])
                 for service, (primary, standby) in SERVICE_SERVERS.items() if primary in servers}
        prefix = {net: addresses[DIRECTOR][net].rsplit(".", 1)[0] for net in (FRONT, BACK)}
        common = {"LB_CONTROL": self.name, "LB_SERVICES": "",
                  "LAB_REAL_SERVERS": " ".join(f"{address}:{haproxy_cfg.PORTS[service]}"
                                               for service, pair in pairs.items() for address in pair)}
        found: dict[str, dict[str, Any]] = {}
        for index, (service, variant) in enumerate(self.directors().items()):
            settings = self.config.director(variant)
            definition: dict[str, Any] = {"environment": {**common, "HAPROXY_CFG": haproxy_cfg.config(settings, service, pairs)},
                          "sysctls": {"net.ipv4.tcp_retries2": settings.server_tcp_retries2}}
            if variant:
                definition.update(like=DIRECTOR, addresses={net: f"{prefix[net]}.{VARIANT_HOSTS + index}"
                                                            for net in (FRONT, BACK)})
            found[service] = definition
        return found

    def changes(self, run: RunFiles) -> list[DirectorChange]:
        """Each server HAProxy marked down or up, from its log, bounded by its runtime API's state
        as sampled: it changed after the last sample that still had it running, and by the first
        that no longer did or the log line, whichever came first."""
        found = []
        for director in self.directors():
            sampled = run.read(run.director_table(director))
            samples, names = haproxy_log.parse_samples(sampled), haproxy_log.server_endpoints(sampled)
            for change in haproxy_log.state_changes(run.read(run.service_log(director))):
                port = haproxy_cfg.PORTS.get(change.backend, 0)
                backend = _address_of(names, change.backend, change.server, port)
                what = f"marked {change.state.lower()} {backend} ({change.backend}/{change.server})"
                found.append(bounded_by_table(DirectorChange(change.t, 0.0, what, change.reason or "health check",
                                                             director, backend if change.state == "DOWN" else ""),
                                              samples))
        return sorted(found, key=lambda c: c.t)

    def change_by_model(self, director: str | None = None, node_grace_s: float | None = None) -> NoticeWindow:
        """Its checks mark the dead server down: new sessions go to the other one from then on."""
        return markdown(self.config.director(self.directors().get(director or DIRECTOR)))

    def lb_noticed(self, change: DirectorChange, death_t: float) -> NoticeWindow:
        """Its checks' markdown; an operator's command on the runtime API is the change itself."""
        if change.why == haproxy_log.MAINTENANCE:
            delay = max(0.0, change.t - death_t)
            return NoticeWindow(delay, delay, delay + change.uncertainty_s, "the operator's own command")
        return markdown(self.config.director(self.directors().get(change.director)))

    def change_for(self, director: str, changes: Sequence[DirectorChange], port: int,
                   after_t: float) -> DirectorChange | None:
        """Its change of the server on `port` whose span reaches past after_t (an operator's command
        lands after the last sample that still had the server running, which may precede the step)."""
        return next((c for c in changes if c.director == director and c.backend.endswith(f":{port}")
                     and c.t + c.uncertainty_s >= after_t), None)

    def effect_on(self, effect: Effect, director: str, changes: Sequence[DirectorChange], t_fault: float) -> Effect:
        """A dead server's packets vanish on the server leg; the client's leg stays healthy (HAProxy
        ACKs all it sends): to the client it is an application that never answers, until one of
        HAProxy's limits closes the session."""
        if effect.kind != BLACKHOLE:
            return effect
        settings = self.config.director(self.directors().get(director))
        down = _markdown_of(director, changes, t_fault)
        span = None if down is None else (round(down.t - t_fault, 3), round(down.t + down.uncertainty_s - t_fault, 3))
        return Effect(APP_HANG, closes=closes(settings, span))

    def effect_by_model(self, effect: Effect, director: str) -> Effect | None:
        if effect.kind != BLACKHOLE:
            return None
        settings = self.config.director(self.directors().get(director))
        down = markdown(settings)
        return Effect(APP_HANG, closes=closes(settings, (down.earliest_s, down.latest_s)))


SHUT_SESSIONS = "HAProxy marked the server down and shut its sessions (on-marked-down shutdown-sessions)"


def closes(settings: HaproxySettings, markdown_s: tuple[float, float] | None = None) -> tuple[Close, ...]:
    """What may close a session whose server died: HAProxy's markdown (with shutdown-sessions),
    markdown_s (from, by) seconds after the death; its session timeout; the server leg's kernel's
    tcp_retries2 budget. The last two count from the request HAProxy forwarded to the dead server."""
    s = settings
    found: list[Close] = []
    if s.shutdown_sessions and markdown_s is not None:
        found.append(Close(markdown_s[0], markdown_s[1], False, SHUT_SESSIONS))
    if s.session_timeout:
        seconds, name = s.session_timeout
        found.append(Close(seconds, seconds, True, f"HAProxy's {name} {seconds:g} s"))
    # `tcp-ut` on a server line is not counted: HAProxy 2.6.12 accepts it, but at tcp-ut 5s it ended
    # no session to a silently dead server here in 40 s (docs/facts/proxies.md)
    leg = kernel_model.for_knobs(s.server_tcp_retries2, 0)
    basis = (f"the proxy host's tcp_retries2={s.server_tcp_retries2} on the server leg (a {leg.budget_s:g} s budget "
             "from its first retransmission)")
    if s.tcp_ut_server:
        basis += f"; its tcp-ut {s.tcp_ut_server:g} s ended nothing on HAProxy 2.6.12"
    found.append(Close(leg.earliest_s, leg.latest_s, True, basis, leg.detect_s))
    return tuple(found)


def _markdown_of(director: str, changes: Sequence[DirectorChange], t_fault: float) -> DirectorChange | None:
    return next((c for c in changes if c.director == director and c.t >= t_fault and c.what.startswith("marked down")),
                None)


def _address_of(names: Mapping[tuple[str, str], str], backend: str, server: str, port: int) -> str:
    return names.get((backend, server), f"{server}:{port}")
