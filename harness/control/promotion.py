"""A control plane's own promotion of a replica (Patroni's), as a typed record: which server, when,
beside the plane's model, and how the director followed; and Patroni's timing, which both Patroni
planes share (patroni.py behind HAProxy, patroni_dns.py behind a name)."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import NotRequired, TypedDict

from ..measure.health_checks import stamp
from .base import DirectorChange, NoticeWindow, RunFiles

PROMOTED = "promoted self to leader"            # Patroni's log line when it took the leader key
SERVERS = ("db-primary", "db-replica")          # the servers Patroni runs on
# From the dead leader's key expiring to the replica's promotion: etcd revokes an expired lease at its
# next check (every 500 ms), the replica's watch wakes its HA cycle, which takes the key and promotes:
# 1 s on an idle host, 2.4 s in a clean-clone make test (three labs at once, 2026-12-02); TCG slower.
PROMOTING_S = 3.0


class ModelPart(TypedDict):
    expected_s: float
    earliest_s: float
    latest_s: float
    basis: str


class PromotionPart(TypedDict):
    """summary.json's signals.lb.promotion."""
    server: str
    promoted_s: float
    by: str
    director_up_s: float | None      # when the director followed, s after the fault (None: not seen)
    director_up: str | None          # its change, in its words
    director_by: NotRequired[str]    # how it followed, when not by its own checks
    model: ModelPart
    within_model: bool


@dataclasses.dataclass(frozen=True)
class Promotion:
    server: str
    promoted_s: float                # s after the fault
    by: str                          # who promoted it ("Patroni")
    model: NoticeWindow
    director_up_s: float | None
    director_up: str | None
    director_by: str | None = None   # None: the director's own checks

    @property
    def within_model(self) -> bool:
        return self.model.earliest_s <= self.promoted_s <= self.model.latest_s

    def as_json(self) -> PromotionPart:
        model: ModelPart = {"expected_s": self.model.expected_s, "earliest_s": self.model.earliest_s,
                            "latest_s": self.model.latest_s, "basis": self.model.basis}
        part: PromotionPart = {"server": self.server, "promoted_s": self.promoted_s, "by": self.by,
                               "director_up_s": self.director_up_s, "director_up": self.director_up,
                               "model": model, "within_model": self.within_model}
        if self.director_by is not None:
            part["director_by"] = self.director_by
        return part


def patroni_window(patroni: Mapping[str, float]) -> NoticeWindow:
    """From the death to the replica's promotion: the leader key was last renewed up to one
    loop_wait before the death and expires ttl after that renewal; the replica, which watches the
    key, takes it then and promotes (the promotion itself adds a little)."""
    ttl, loop = patroni["ttl"], patroni["loop_wait"]
    return NoticeWindow(ttl - loop / 2, ttl - loop, ttl + PROMOTING_S,
                        f"Patroni's ttl {ttl} s, renewed every loop_wait {loop} s")


def patroni_promotions(run: RunFiles) -> list[tuple[float, str]]:
    """[(t, server)] each time a server's Patroni took the leader key, from its log, in time order."""
    found = ((stamp(line), server) for server in SERVERS
             for line in run.read(run.service_log(server)).splitlines() if PROMOTED in line)
    return sorted((t, server) for t, server in found if t is not None)


def first_patroni_promotion(run: RunFiles, t_fault: float, window: NoticeWindow, changes: Iterable[DirectorChange],
                            followed: Callable[[DirectorChange], bool], director_by: str | None = None,
                            director: Callable[[DirectorChange], str] = lambda c: c.director) -> Promotion | None:
    """Patroni's first promotion after the fault, beside its window, and the first change of the
    director at or after it that `followed` picks (its way of following the new primary)."""
    after = [(t, server) for t, server in patroni_promotions(run) if t >= t_fault]
    if not after:
        return None
    t, server = after[0]
    up = [c for c in changes if c.t >= t and followed(c)]
    return Promotion(server, round(t - t_fault, 3), "Patroni", window,
                     round(up[0].t - t_fault, 3) if up else None, f"{director(up[0])}: {up[0].what}" if up else None,
                     director_by)
