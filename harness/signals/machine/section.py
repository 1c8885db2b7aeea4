"""The run page's section on the machine the clients ran on (the signal: __init__.py): how busy
its CPUs were around the fault, and while each cell waited for its error (and, for an error after
its window, while it was late)."""
from collections.abc import Mapping, Sequence
from typing import Any

from ..blocks import Block, Table

TITLE = "The machine the clients ran on"
READS = {"signals": ("machine",), "cells": ("machine",)}
HEADER = ["cell", "CPU busy while it waited", "while it was late", "saturated"]


def _share(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def rows(summary: Mapping[str, Any]) -> list[list[Any]]:
    return [[cell["cell"], _share(m.get("busy_while_waiting")), _share(m.get("busy_while_late")),
             "yes" if m.get("saturated") else "no"]
            for cell in summary.get("cells", []) for m in [cell.get("machine")] if m]


def blocks(summary: Mapping[str, Any]) -> list[Block]:
    part = summary.get("signals", {}).get("machine")
    if not part:
        return []
    shares = [f"{part[key]:.0%} busy {when}" for key, when in (("busy_before_fault", "in the 10 s before the fault"),
                                                               ("busy_after_fault", "in the 10 s after it"))
              if part.get(key) is not None]
    measured = (f"The CPUs where the clients ran were {' and '.join(shares)} (/proc/stat, twice a second)" if shares
                else "The CPUs where the clients ran were not sampled around the fault")
    around = (f"{measured}; above {part['saturated_above']:.0%} a client's timer, or its wakeup once the kernel "
              "gave up, waits for a free CPU.")
    found = rows(summary)
    table: list[Block] = [Table(HEADER, found)] if found else []
    return table + [around + _late_wakeups(part.get("late_wakeups") or [])]


def _late_wakeups(late: Sequence[Mapping[str, Any]]) -> str:
    """' Timed wakeups came late ...' for the late wakes its sampler saw (stalls.py); '' for none."""
    if not late:
        return ""
    latest = max(late, key=lambda stall: stall["late_s"])
    return (f" Timed wakeups came late {len(late)} time(s) during the run (its sampler woke 0.05 s or more past its "
            f"half-second wait), the most {latest['late_s']:.2f} s, {latest['at_s']:+.1f} s from the fault: a "
            "client's timer due then fired as late.")

