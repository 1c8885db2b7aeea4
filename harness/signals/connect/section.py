"""The run page's connection-setup section (load.connect): each phase's percentiles with the
count behind them, and the connects grouped by the SYNs their kernel resent, beside the SYN
schedule that explains each group."""
from collections.abc import Mapping
from typing import Any, Literal

from ..blocks import Block, Subheading, Table
from .record import ConnectRun, Stats

TITLE = "Connection setup through the VIP"
READS = {"signals": ("connect",), "cells": ("query_latency",)}
PHASES: tuple[tuple[Literal["before", "during", "after"], str], ...] = (
    ("before", "warm-up, before the fault"), ("during", "while the fault lasted"), ("after", "after the heal"))
HEADER = ["phase", "connects", "established", "failed", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "errors"]
SYN_HEADER = ["SYNs resent", "established", "failed", "connect() took (s)", "the SYN schedule's retransmission"]


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def _row(label: str, p: Stats) -> list[str]:
    errors = ", ".join(f"{name} {n}" for name, n in p.get("by_error", {}).items()) or "—"
    return [label, str(p["n"]), str(p["ok"]), str(p["failed"]), _ms(p["p50"]), _ms(p["p99"]), _ms(p["p99_9"]),
            _ms(p["max"]), errors]


def phase_rows(part: ConnectRun) -> list[list[str]]:
    rows = [_row(label, part["phases"][key]) for key, label in PHASES if key in part["phases"]]
    if "stalls" in part:
        rows += [_row("met a receive-path stall", part["met_a_stall"]),
                 _row("met none", part["met_no_stall"])]
    return rows


def query_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    """Each cell's probe operations by phase, where the run measured them (the signal: __init__.py)."""
    return [[cell["cell"], *_row(label, cell["query_latency"][key])]
            for cell in summary["cells"] if "query_latency" in cell
            for key, label in PHASES if key in cell["query_latency"]]


def syn_rows(part: ConnectRun) -> list[list[str]]:
    schedule = part["syn_schedule"]["retransmitted_at_s"]
    rows = []
    for count, group in sorted(part["by_syn_retransmissions"].items(), key=lambda item: int(item[0])):
        count = int(count)
        took = "—" if group["min_s"] is None else f"{group['min_s']:.3f}–{group['max_s']:.3f}"
        expected = "first SYN answered" if count == 0 else (
            f"#{count} at {schedule[count - 1]:g} s" if count <= len(schedule) else "past tcp_syn_retries")
        rows.append([str(count), str(group["ok"]), str(group["failed"]), took, expected])
    return rows


def explanation(part: ConnectRun) -> str:
    s = part["syn_schedule"]
    stalls = part.get("stalls")
    held = (f"The target's log shows {stalls['count']} stalls of {stalls['min_s']:.3f}–{stalls['max_s']:.3f} s "
            f"(block to release, on its own clock). ") if stalls else ""
    return held + (f"{part['sent']} connects to port {part['port']} at {part['rate_per_s']}/s from {part['from']} "
            f"({part['skipped'] or 0} ticks skipped), each given up after {part['timeout_s']:g} s. "
            f"A percentile of fewer than 1000 connects is their maximum (nearest rank), hence the counts. "
            f"That namespace's SYN schedule: tcp_syn_retries={s['tcp_syn_retries']}, "
            f"tcp_syn_linear_timeouts={s['tcp_syn_linear_timeouts']}.")


def blocks(summary: Mapping[str, Any]) -> list[Block]:
    part = summary.get("signals", {}).get("connect")
    if not part:
        return []
    return [Table(HEADER, phase_rows(part)), Table(SYN_HEADER, syn_rows(part)), explanation(part),
            Subheading("The probes' queries, by phase"), Table(["cell"] + HEADER, query_rows(summary))]
