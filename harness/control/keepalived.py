"""keepalived as the director's control plane: it health-checks the real servers and programs
IPVS itself (a failed primary out, the replica, its sorry server, in; the promotion by its
notify_down hook), never touching net.ipv4.vs.*; with VRRP, two directors share the VIP.
docs/facts/production.md sections 1 and 2."""
import dataclasses
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..measure.effects import BLACKHOLE, NONE, RESET, Effect
from ..measure import director_table, health_checks
from ..lab_commands import Ran
from ..measure.syn_model import syn_retransmissions, syn_retransmit_times
from ..measure.sysctl_knobs import KERNEL_DEFAULTS
from ..topology import BACK, DIRECTOR, FRONT, SERVICE_SERVERS
from . import keepalived_conf, keepalived_vrrp
from .base import (
    Addresses, ControlPlane, DirectorChange, NoticeWindow, PlanesLab, PromotingDatabase, RunFiles, Setting,
    VersionCommands, effect_from_change)
from .keepalived_settings import CHECKS, VRRP_MODES, KeepalivedSettings, lb_noticed, vrrp_takeover

BACKUP_DIRECTOR = "director-backup"
# [address]:tcp:port, as keepalived writes a server
SERVER = r"\[(?P<{0}>[0-9.]+)\]:tcp:(?P<{0}_port>\d+)"
CHANGE_RE = re.compile(r"(?P<how>Removing|Disabling) service " + SERVER.format("rs") + r" (?:from|of) VS "
                       + SERVER.format("vs"))
FAILED_RE = re.compile(r"(?P<check>\w+) on service " + SERVER.format("rs") + r" failed")
VRRP_RE = re.compile(r"\((?P<instance>[\w-]+)\) Entering (?P<state>MASTER|BACKUP|FAULT) STATE")
TAKES_VIP = "takes the VIP"
VARIANT_KEYS = ("inhibit_on_failure", "expire_nodest_conn", "delay_loop", "connect_timeout", "retry", "delay_before_retry")
# Directors' own addresses: .11 and .12 with VRRP (the VIP .10 floats), variants from .13 (below
# .20, where cells in network namespaces start, and Docker's .128 and up)
VARIANT_HOSTS, MAX_VARIANTS = 12, 7
ASK_LIMIT_S = 30              # a director's answer to where VRRP stands (keepalived_vrrp.py)


def parse_changes(text: str, director: str) -> list[DirectorChange]:
    """[DirectorChange] keepalived's log (docker logs --timestamps) says it made on the director."""
    changes: list[DirectorChange] = []
    why: dict[str, str] = {}
    for line in text.splitlines():
        failed = FAILED_RE.search(line)
        if failed:
            why[failed["rs"]] = f"{failed['check']} failed"
        vrrp, m, t = VRRP_RE.search(line), CHANGE_RE.search(line), health_checks.stamp(line)
        if t is None:
            continue
        if vrrp:
            what = TAKES_VIP if vrrp["state"] == "MASTER" else f"VRRP {vrrp['state'].lower()}"
            changes.append(DirectorChange(t, 0.0, what, f"VRRP instance {vrrp['instance']}", director))
            continue
        if not m:
            continue
        backend, vip = f"{m['rs']}:{m['rs_port']}", f"{m['vs']}:{m['vs_port']}"
        what = f"{'weight 0' if m['how'] == 'Disabling' else 'removed'} {backend} from {vip}"
        changes.append(DirectorChange(t, 0.0, what, why.get(m["rs"], "health check failed"), director, backend))
    return changes


def bounded_by_table(change: DirectorChange, samples: Sequence[tuple[float, Any]]) -> DirectorChange:
    if not change.backend:
        return change
    serving = [t for t, table in samples if t <= change.t and director_table.serves(table, change.backend)]
    if not serving:
        return change
    gone = next((t for t, table in samples if t > serving[-1] and not director_table.serves(table, change.backend)),
                change.t)
    upper = min(change.t, gone)
    return dataclasses.replace(change, t=serving[-1], uncertainty_s=round(upper - serving[-1], 3))


class Keepalived(ControlPlane):
    name = "keepalived"
    needs_ipvs = True
    acts_by_itself = True
    settings_spec = {
        "delay_loop": Setting("duration", 60.0, 0.1, 3600, help="s between checks of a real server"),
        "connect_timeout": Setting("duration", 5.0, 0.1, 300, help="s a check waits for its connect"),
        "retry": Setting("int", 1, 0, 100, help="failed attempts after the first before a server is down"),
        "delay_before_retry": Setting("duration", 1.0, 0, 600, help="s between those attempts"),
        "check": Setting("str", "tcp", choices=CHECKS, help="TCP_CHECK, MISC_CHECK with a MySQL handshake, HTTP_GET"),
        "inhibit_on_failure": Setting("bool", False, help="weight 0 instead of deleting a failed server"),
        "expire_nodest_conn": Setting("int", 0, choices=(0, 1), help="the director's net.ipv4.vs.expire_nodest_conn"),
        "vrrp": Setting("str", "none", choices=VRRP_MODES, help="a backup director sharing the VIP (sync: and its "
                                                               "connection table)"),
        "advert_int": Setting("duration", 1.0, 1, 255, help="VRRP advertisement interval, s"),
        "preempt": Setting("bool", True, help="a restarted master takes the VIP back"),
        "virtual_services": Setting("int", 1, 1, 64, help="virtual servers per service on the VIP (the first on the "
                                                        "service's port, the others on port+10000+k), each with "
                                                        "its own checker of the same real servers"),
        "directors": Setting("variants", (), maximum=MAX_VARIANTS, choices=VARIANT_KEYS,
                             help="more directors, each its own VIP: {name: {inhibit_on_failure, expire_nodest_conn, delay_loop, "
                                  "connect_timeout, retry, delay_before_retry}}"),
    }

    def __init__(self, settings: Iterable[tuple[str, Any]] = ()) -> None:
        super().__init__(settings)
        values = {k: v for k, v in self.settings.items() if k in self.settings_spec}
        values["directors"] = tuple((name, dict(over)) for name, over in values.get("directors", ()))
        self.config = KeepalivedSettings(**values)
        self._last_asked: tuple[object, keepalived_vrrp.VrrpState] | None = None   # (before, what caught_up saw)

    @property
    def shares_vip(self) -> bool:
        return self.config.vrrp != "none"

    def directors(self) -> dict[str, str | None]:
        found: dict[str, str | None] = {DIRECTOR: None}
        if self.config.vrrp != "none":
            found[BACKUP_DIRECTOR] = None
        found.update({f"{DIRECTOR}-{name}": name for name in self.config.variants()})
        return found

    def lab_settings(self) -> dict[str, str]:
        return {"LB_CONTROL": self.name, "LB_EXPIRE_NODEST_CONN": str(self.config.expire_nodest_conn)}

    def version_commands(self) -> VersionCommands:
        return (("keepalived", DIRECTOR, ("keepalived", "--version")),)

    def services(self, addresses: Addresses, database: PromotingDatabase, servers: Sequence[str]) -> dict[str, Any]:
        """The main director's keepalived.conf; a second director for VRRP (the VIP and the back
        address floating between them) and one per variant (its own VIP, its own sysctl). A
        virtual server per service whose servers the run starts, its primary the real server."""
        pairs = {service: (addresses[primary][BACK], addresses[standby][BACK])
                 for service, (primary, standby) in SERVICE_SERVERS.items() if primary in servers}
        vip = addresses[DIRECTOR][FRONT]
        prefix = {FRONT: vip.rsplit(".", 1)[0], BACK: addresses[DIRECTOR][BACK].rsplit(".", 1)[0]}
        common = {"LB_CONTROL": self.name, "LAB_PROMOTE_SQL": database.promote_sql,
                  "LAB_STOP_RECEIVING_SQL": database.stop_receiving_sql, "LAB_APPLY_WAIT_S": str(database.apply_wait_s),
                  # keepalived starts once these answer (images/director/director-start)
                  "LAB_REAL_SERVERS": " ".join(f"{primary}:{keepalived_conf.PORTS[service]}"
                                               for service, (primary, _) in pairs.items())}
        services: dict[str, dict[str, Any]] = {}
        if self.config.vrrp == "none":
            services[DIRECTOR] = {"environment": {**common, "KEEPALIVED_CONF": keepalived_conf.config(
                self.config, DIRECTOR, vip, pairs)}}
        else:
            own = {DIRECTOR: {FRONT: f"{prefix[FRONT]}.11", BACK: f"{prefix[BACK]}.11"},
                   BACKUP_DIRECTOR: {FRONT: f"{prefix[FRONT]}.12", BACK: f"{prefix[BACK]}.12"}}
            back_vip = f"{prefix[BACK]}.9"
            for name, peer, master in ((DIRECTOR, BACKUP_DIRECTOR, True), (BACKUP_DIRECTOR, DIRECTOR, False)):
                # Either may be master when the primary dies: both promote (a second promotion changes nothing).
                conf = keepalived_conf.config(self.config, name, vip, pairs, (master, vip, back_vip, own[peer][FRONT]))
                services[name] = {"like": DIRECTOR, "addresses": own[name],
                                  "environment": {**common, "KEEPALIVED_CONF": conf, "LB_SNAT_ADDRESS": back_vip}}
        for index, name in enumerate(self.config.variants(), start=1):
            variant = self.config.director(name)
            its = {FRONT: f"{prefix[FRONT]}.{VARIANT_HOSTS + index}", BACK: f"{prefix[BACK]}.{VARIANT_HOSTS + index}"}
            conf = keepalived_conf.config(variant, f"{DIRECTOR}-{name}", its[FRONT], pairs, promotes=False)
            masqueraded = ",".join(f"{its[FRONT]}:{keepalived_conf.PORTS[s]}={primary}:{keepalived_conf.PORTS[s]}"
                                   for s, (primary, _) in pairs.items())
            services[f"{DIRECTOR}-{name}"] = {
                "like": DIRECTOR, "addresses": its, "sysctls": {"net.ipv4.vs.expire_nodest_conn": variant.expire_nodest_conn},
                "environment": {**common, "KEEPALIVED_CONF": conf, "LB_SERVICES": masqueraded}}
        return services

    def progress(self, lab: PlanesLab) -> keepalived_vrrp.VrrpState | None:
        """With VRRP, where it stands (keepalived_vrrp.py); without, None: its checks' changes are
        read from its log after the run."""
        if not self.shares_vip:
            return None
        pair = (DIRECTOR, BACKUP_DIRECTOR)        # the master's priority first
        return keepalived_vrrp.parse(pair, [_answer(lab, d) for d in pair])

    def caught_up(self, lab: PlanesLab, before: object) -> bool:
        """VRRP settled (keepalived_vrrp.py) at this ask and the same at the one before: a
        failback seen at one ask alone may be a moment old, before the clients met it."""
        now = self.progress(lab)
        if now is None:
            return True
        last, self._last_asked = self._last_asked, (before, now)
        return now.settled(self.config.preempt) and last is not None and last[0] is before and last[1] == now

    def changes(self, run: RunFiles) -> list[DirectorChange]:
        """From keepalived's log (what, and why), each bounded by the director's own table as
        sampled: it changed after the last sample that still served the backend, and by the first
        that no longer did or the log line, whichever came first (Docker stamps a log line when it
        reads it: in a TCG guest up to 0.7 s after keepalived wrote it)."""
        found = []
        for director in self.directors():
            samples = director_table.parse_samples(run.read(run.director_table(director)))
            found += [bounded_by_table(change, samples) for change in
                      parse_changes(run.read(run.service_log(director)), director)]
        return sorted(found, key=lambda c: c.t)

    def change_by_model(self, director: str | None = None, node_grace_s: float | None = None) -> NoticeWindow:
        """Its checks take a silently dead server out (lb_noticed); a database's death leaves the
        directors' VRRP alone."""
        return lb_noticed(self.config.director(self.directors().get(director or DIRECTOR)))

    def effect_by_model(self, effect: Effect, director: str) -> Effect | None:
        """effect_on() by the timers' model: with expire_nodest_conn=1 (and the server deleted, not kept
        at weight 0) the flows are reset from its removal on."""
        variant = self.config.director(self.directors().get(director or DIRECTOR))
        if effect.kind != BLACKHOLE or self.shares_vip or variant.inhibit_on_failure or not variant.expire_nodest_conn:
            return None
        removed = lb_noticed(variant)
        return dataclasses.replace(effect, reset_at_s=removed.earliest_s, reset_by_s=removed.latest_s)

    def lb_noticed(self, change: DirectorChange, death_t: float) -> NoticeWindow:
        if change.what == TAKES_VIP:
            return vrrp_takeover(self.config)
        variant = self.directors().get(change.director)
        return lb_noticed(self.config.director(variant))

    def change_for(self, director: str, changes: Sequence[DirectorChange], port: int,
                   after_t: float) -> DirectorChange | None:
        """With VRRP, the backup taking the VIP over; else its director's taking the dead server out."""
        if self.shares_vip:
            return next((c for c in changes if c.what == TAKES_VIP and c.t >= after_t), None)
        # the change to the virtual server on `port` ('removed <backend> from <vip>:<port>')
        return next((c for c in changes if c.director == director and c.backend and c.what.endswith(f":{port}")
                     and c.t >= after_t), None)

    def effect_on(self, effect: Effect, director: str, changes: Sequence[DirectorChange], t_fault: float) -> Effect:
        """With expire_nodest_conn=1 a deleted server's flows are flushed (Linux >= 5.9): what a
        blackholed client sends after the removal meets the director's own stack, a reset. A
        server kept at weight 0 (inhibit_on_failure), or expire_nodest_conn=0, leaves the blackhole.
        With VRRP, what a client sends after the backup took the VIP over reaches the backup:
        without connection sync it knows no such flow and its own stack resets it; with it, the
        flow goes on to the same backend (through the address both directors masquerade to)."""
        if self.shares_vip:
            return self._after_takeover(effect, changes, t_fault)
        variant = self.config.director(self.directors().get(director))
        if effect.kind == NONE:
            return _false_alarm(effect, variant, director, changes, t_fault)
        if effect.kind != BLACKHOLE or variant.inhibit_on_failure or not variant.expire_nodest_conn:
            return effect
        removal = next((c for c in changes if c.director == director and c.t >= t_fault
                        and c.what.startswith("removed")), None)
        return effect_from_change(effect, removal, t_fault, "reset")

    def health_checks(self, run: RunFiles, env: Mapping[str, Any], periods: Mapping[str, tuple[float, float | None]],
                      end_t: float) -> dict[str, health_checks.DirectorChecks]:
        found: dict[str, health_checks.DirectorChecks] = {}
        for director, variant in self.directors().items():
            servers = health_checks.parse(run.read(run.service_log(director)))
            sysctls = env.get("director", {}) if director == DIRECTOR else env.get("directors", {}).get(director, {})
            settings = self.config.director(variant)
            linear = sysctls.get("tcp_syn_linear_timeouts", 0)          # absent before Linux 6.5
            retries = sysctls.get("tcp_syn_retries", KERNEL_DEFAULTS["tcp_syn_retries"])
            schedule = [t for t in syn_retransmit_times(linear, syn_retransmissions(retries, linear)) if t < settings.connect_timeout]
            checks: health_checks.DirectorChecks = {
                "check": settings.check, "connect_timeout_s": settings.connect_timeout,
                "delay_loop_s": settings.delay_loop, "retry": settings.retry,
                "virtual_services": settings.virtual_services,
                "tcp_syn_retries": retries, "tcp_syn_linear_timeouts": linear,
                "syns_per_check": health_checks.syn_chances(settings.connect_timeout, schedule),
                "syn_retransmitted_at_s": schedule}
            if set(periods) - set(health_checks.PERIODS):
                raise ValueError(f"a health-check period is before, during or after, not {sorted(periods)}")
            for name in health_checks.PERIODS:
                if name in periods:
                    start, stop = periods[name]
                    checks[name] = health_checks.summarize(servers, start, stop, end_t)
            found[director] = checks
        return found

    def _after_takeover(self, effect: Effect, changes: Sequence[DirectorChange], t_fault: float) -> Effect:
        takeover = next((c for c in changes if c.what == TAKES_VIP and c.t >= t_fault), None)
        return effect_from_change(effect, takeover, t_fault, "resume" if self.config.vrrp == "sync" else "reset")


def _answer(lab: PlanesLab, director: str) -> Ran | None:
    try:
        return lab.exec(director, keepalived_vrrp.STATE_COMMAND, check=False, timeout=ASK_LIMIT_S)
    except subprocess.TimeoutExpired:
        return None


def _false_alarm(effect: Effect, variant: KeepalivedSettings, director: str, changes: Sequence[DirectorChange],
                 t_fault: float) -> Effect:
    """A fault that killed nothing, and keepalived took the live server out all the same (its checks
    failed: a health-check storm). Deleted, the server's flows get no answer from then on (with
    expire_nodest_conn=0: a blackhole the client's kernel waits out) or a reset at their next
    packet (=1); kept at weight 0 (inhibit_on_failure) they go on."""
    service_ports = tuple(f":{port}" for port in keepalived_conf.PORTS.values())    # not the extra virtual servers'
    removal = next((c for c in changes if c.director == director and c.t >= t_fault and c.what.startswith("removed")
                    and c.what.endswith(service_ports)), None)
    if removal is None or variant.inhibit_on_failure:
        return effect
    return Effect(RESET if variant.expire_nodest_conn else BLACKHOLE, starts_at_s=round(removal.t - t_fault, 3),
                  starts_by_s=round(removal.t + removal.uncertainty_s - t_fault, 3))
