"""The run page's health-check section (the signal: __init__.py): per director and real server,
its failed checks, flaps and time out of rotation in each period, and why a check failed: the
SYNs it gets within connect_timeout on that director's kernel, against the share of SYNs the
backend's limit dropped."""
from collections.abc import Mapping
from typing import Any, Literal

from ..blocks import Block, Table
from .record import HealthChecksRun

TITLE = "Health checks: failures, flaps, time out of rotation"
READS = {"signals": ("health_checks",)}
HEADER = ["director", "real server", "period", "failed checks", "flaps", "virtual servers hit", "out of rotation (s)"]
PERIODS: tuple[tuple[Literal["before", "during", "after"], str], ...] = (
    ("before", "warm-up, before the fault"), ("during", "while it lasted"), ("after", "after the heal"))


def rows(part: HealthChecksRun) -> list[list[str]]:
    found = []
    for director, d in part["directors"].items():
        for key, label in PERIODS:
            for server, s in sorted(d.get(key, {}).items()):
                found.append([director, server, label, str(s["failed_checks"]), str(s["flaps"]),
                              str(s["virtual_servers_hit"]), f"{s['out_s']:.1f}"])
    return found


def explanations(part: HealthChecksRun) -> list[str]:
    lines = []
    for director, d in part["directors"].items():
        resent = ", ".join(f"{t:g}" for t in d["syn_retransmitted_at_s"]) or "none"
        lines.append(f"{director}: {d['virtual_services']} virtual server(s) per service, a check every "
                     f"{d['delay_loop_s']:g} s each; a check's connect gets {d['syns_per_check']} SYN(s) within "
                     f"connect_timeout {d['connect_timeout_s']:g} s (its kernel resends at {resent} s: "
                     f"tcp_syn_retries={d['tcp_syn_retries']}, tcp_syn_linear_timeouts={d['tcp_syn_linear_timeouts']}); "
                     f"it fails only if every one of them is dropped.")
    for backend, b in part["limited_backends"].items():
        share = b["dropped_share"]
        if share is None:
            lines.append(f"{backend}: its limit saw no SYN.")
            continue
        chances = sorted({d["syns_per_check"] for d in part["directors"].values()})
        odds = "; ".join(f"{n} SYNs all dropped: {share ** n:.1%} if drops were independent" for n in chances)
        lines.append(f"{backend}: its limit of {b['rate_per_s']} SYNs/s dropped {b['syns_dropped']} and passed "
                     f"{b['syns_passed']} ({share:.0%} dropped) — {odds}.")
    return lines


def blocks(summary: Mapping[str, Any]) -> list[Block]:
    part = summary.get("signals", {}).get("health_checks")
    return [Table(HEADER, rows(part)), *explanations(part)] if part else []
