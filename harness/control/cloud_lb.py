"""Cloud load balancers as control planes: an emulation, on the lab's director, of what each
provider documents (one file each: aws_nlb.py, gcp_passthrough.py, azure_standard.py): its
health checks' timers, and what the existing flows of a target that turned unhealthy get (a reset
at their next packet, or kept: still sent to the dead target, a blackhole). The checks and the
change run in images/director/cloud-lb-checker over lbctl, on either datapath; nothing here is the
provider's code, and the page says so. A provider whose idle timeout is emulated (forgotten_flows())
has the director forget a flow idle that long (lbctl's idle timeout, conntrack's loose pick-up off)
and meet its next packet as the provider documents: a reset, or a silent drop (nftables datapath
only). An operator's deregistration from AWS NLB, with its delay and connection termination, is a
fault of its own (faults/aws_deregister.py): the checker then no longer checks that target."""
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..measure.effects import BLACKHOLE, Effect
from ..measure.health_checks import stamp
from ..topology import BACK, DIRECTOR, FRONT, SERVICE_PORTS, SERVICE_SERVERS
from .base import Addresses, ControlPlane, DirectorChange, NoticeWindow, PromotingDatabase, RunFiles, effect_from_change

RESET, KEPT = "reset", "kept"
# the checker's timers and lbctl's change run late on a busy director as keepalived's do: allowed
# before a run, and for a change whose log does not say how late it was
TIMERS_LATE_S = 0.5
# a check due just after the death's stamp may still have been answered: the cut lands within
# the fault's own uncertainty (0.01-0.03 s on this host)
DEATH_STAMP_S = 0.1
CHANGE_RE = re.compile(r"cloud-lb (?P<provider>\S+): target (?P<target>\S+) unhealthy: (?P<vip>\S+) now "
                       r"(?P<standby>\S+), existing flows (?P<flows>\w+) (?P<landed>\{.*\})")


class CloudLb(ControlPlane):
    acts_by_itself = True
    source = ""                # the provider's documentation the emulation follows

    @classmethod
    def problem(cls, settings: Mapping[str, Any]) -> str | None:
        defaults = {name: spec.default for name, spec in cls.settings_spec.items()}
        given = {**defaults, **settings}
        if given.get("timeout") and given["timeout"] > given["interval"]:
            return (f"timeout {given['timeout']:g} s is longer than interval {given['interval']:g} s "
                    "(the provider refuses it: a check would outlast the next)")
        return None

    def existing_flows(self) -> str:
        """RESET or KEPT: what the flows of an unhealthy target get, by this provider's settings."""
        raise NotImplementedError

    def timers(self) -> tuple[float, float, int]:
        """(interval, timeout, unhealthy threshold) of its health checks."""
        s = {name: self.settings.get(name, spec.default) for name, spec in self.settings_spec.items()}
        return s["interval"], s.get("timeout") or s["interval"], s["unhealthy_threshold"]

    def sampled_directors(self, datapath: str) -> tuple[str, ...]:
        return ()              # lbctl stamps its own change

    def forgotten_flows(self) -> str | None:
        """RESET or "drop": what the next packet of a flow idle past the provider's idle timeout
        meets; None: its idle timeout is not emulated."""
        return None

    def idle_timeout_s(self) -> float:
        return self.settings.get("idle_timeout", self.settings_spec["idle_timeout"].default)

    def lab_settings(self) -> dict[str, str]:
        found = {"LB_EXPIRE_NODEST_CONN": "1" if self.existing_flows() == RESET else "0"}
        forgotten = self.forgotten_flows()
        if forgotten:
            found.update(LB_IDLE_TIMEOUT=str(int(self.idle_timeout_s())), LB_CONNTRACK_LOOSE="0",
                         LB_FORGOTTEN_FLOWS=forgotten)
        return found

    def services(self, addresses: Addresses, database: PromotingDatabase, servers: Sequence[str]) -> dict[str, Any]:
        vip = addresses[DIRECTOR][FRONT]
        watched = [[f"{vip}:{SERVICE_PORTS[service]}", f"{addresses[primary][BACK]}:{SERVICE_PORTS[service]}",
                    f"{addresses[standby][BACK]}:{SERVICE_PORTS[service]}"]
                   for service, (primary, standby) in SERVICE_SERVERS.items() if primary in servers]
        interval, timeout, threshold = self.timers()
        spec = {"provider": self.name, "interval": interval, "timeout": timeout, "unhealthy_threshold": threshold,
                "nodest": "reset" if self.existing_flows() == RESET else "drop",
                "existing_flows": self.existing_flows(), "source": self.source, "services": watched}
        return {DIRECTOR: {"environment": {"CLOUD_LB": json.dumps(spec),
                                           "LAB_REAL_SERVERS": " ".join(target for _, target, _ in watched)}}}

    def changes(self, run: RunFiles) -> list[DirectorChange]:
        """Each target the emulation took out, when lbctl says its change landed."""
        found = []
        for line in run.read(run.service_log(DIRECTOR)).splitlines():
            m = CHANGE_RE.search(line)
            if not m:
                continue
            landed = json.loads(m["landed"]) if m["landed"] != "{}" else {}
            t = landed.get("applying_t") or stamp(line)
            if t is None:
                raise ValueError(f"{DIRECTOR}'s log: a change with neither lbctl's landing nor Docker's time: {line!r}")
            until = landed.get("applied_t", t)
            # the emulator's lag: from when the deciding check was due to end to lbctl's landing
            lag = round(max(0.0, t - landed["check_due_end_t"]), 3) if "check_due_end_t" in landed else None
            found.append(DirectorChange(t, round(until - t, 3), f"removed {m['target']} from {m['vip']}, "
                                        f"{m['standby']} in (existing flows {m['flows']})",
                                        f"{self.timers()[2]} failed health check(s)", DIRECTOR, m["target"],
                                        took_s=lag))
        return sorted(found, key=lambda c: c.t)

    def lb_noticed(self, change: DirectorChange, death_t: float) -> NoticeWindow:
        """The markdown model, late by what the checker's log says the emulator was (took_s: its
        deciding check's scheduled end to lbctl's landing) where it says it, else by TIMERS_LATE_S."""
        if change.took_s is None:
            return self.markdown()
        return self.markdown(change.took_s + DEATH_STAMP_S, f"; the change landed {change.took_s:.2f} s after its "
                                                            "deciding check was due to end (the emulator's lag here)")

    def change_by_model(self, director: str | None = None, node_grace_s: float | None = None) -> NoticeWindow:
        return self.markdown()

    def markdown(self, late_s: float = TIMERS_LATE_S, lateness: str = "") -> NoticeWindow:
        """A silent target: the first check that fails starts within one interval of the death,
        the threshold's last one ends timeout after it started, threshold-1 intervals later."""
        interval, timeout, threshold = self.timers()
        failing = (threshold - 1) * interval + timeout
        basis = (f"{self.name} (emulated): next check within interval {interval:g} s, then {threshold} failed "
                 f"check(s) every {interval:g} s, the last one timing out after {timeout:g} s{lateness}")
        return NoticeWindow(failing + interval / 2, failing, failing + interval + late_s, basis)

    def change_for(self, director: str, changes: Sequence[DirectorChange], port: int,
                   after_t: float) -> DirectorChange | None:
        return next((c for c in changes if c.director == director and c.backend.endswith(f":{port}")
                     and c.t >= after_t), None)

    def effect_on(self, effect: Effect, director: str, changes: Sequence[DirectorChange], t_fault: float) -> Effect:
        if self.existing_flows() != RESET:
            return effect
        removal = next((c for c in changes if c.t >= t_fault), None)
        return effect_from_change(effect, removal, t_fault, "reset")

    def effect_by_model(self, effect: Effect, director: str) -> Effect | None:
        if effect.kind != BLACKHOLE or self.existing_flows() != RESET:
            return None
        window = self.markdown()
        return Effect(BLACKHOLE, reset_at_s=window.earliest_s, reset_by_s=window.latest_s)
