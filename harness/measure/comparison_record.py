"""Runs side by side (measure/comparison.py) as typed records: each run, and per cell each run's
view of it and the differences flagged. as_json() writes comparison.json with the keys it has
always had; the page (report/comparison_page.py) reads the records."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any


@dataclasses.dataclass(frozen=True)
class CellView:
    """One run's cell: what it measured beside its own model window, and what its control plane did."""
    lb_noticed_s: tuple[float | None, float | None] | None   # the director's change, noticed from-by (s after it)
    promoted: tuple[str, float] | None          # (by whom, when) a control plane promoted a replica itself
    stepped: tuple[str, float] | None           # (what, when) a scenario step changed for the clients
    detect_s: float | None
    recover_s: float | None
    error: str | None
    observed_s: float | None                    # how long the run watched (a cell without an error waited that long)
    within_window: bool | None
    unknown: str | None                         # why the run could not judge it (its verdict unknown), or None
    expected_s: float | None
    earliest_s: float | None
    latest_s: float | None
    basis: str | None
    base_rto_s: float | None
    hz: int | None

    def as_json(self) -> dict[str, Any]:
        pairs = {"lb_noticed_s": self.lb_noticed_s, "promoted": self.promoted, "stepped": self.stepped}
        return {**{k: list(v) if v is not None else None for k, v in pairs.items()},
                **{f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in pairs}}


@dataclasses.dataclass(frozen=True)
class Flag:
    """A difference from the reference run worth a look, and what explains it."""
    run: str
    what: str
    delta_s: float | None = None        # the detect times' difference (None: only one of them saw an error)
    tolerance_s: float | None = None    # None: a cell one of the runs lacks

    def as_json(self) -> dict[str, Any]:
        if self.tolerance_s is None:
            return {"run": self.run, "what": self.what}
        return {"run": self.run, "delta_s": self.delta_s, "tolerance_s": self.tolerance_s, "what": self.what}


@dataclasses.dataclass(frozen=True)
class ComparedCell:
    name: str
    by_run: Mapping[str, CellView | None]   # None: the run has no such cell
    flags: tuple[Flag, ...]


@dataclasses.dataclass(frozen=True)
class ComparedRun:
    label: str
    scenario: str
    run: str
    kernel: str | None
    datapath: str | None
    control: str
    where: str


@dataclasses.dataclass(frozen=True)
class Comparison:
    runs: tuple[ComparedRun, ...]
    reference: str                      # the first run's label: the others are compared with it
    cells: tuple[ComparedCell, ...]
    kernel_facts: Mapping[str, Any]     # measure/kernel_facts.py facts_table
    predictions: Mapping[str, Mapping[str, str | float]] | None = None   # {label: {cell: guess}} (make compare)
    pages: Mapping[str, str] | None = None                              # {label: its run's page} (make compare)

    def as_json(self) -> dict[str, Any]:
        written: dict[str, Any] = {
            "runs": [dataclasses.asdict(r) for r in self.runs], "reference": self.reference,
            "cells": [{"cell": c.name, "by_run": {label: v.as_json() if v else None for label, v in c.by_run.items()},
                       "flags": [f.as_json() for f in c.flags]} for c in self.cells],
            "kernel_facts": self.kernel_facts}
        if self.predictions is not None:
            written["predictions"] = self.predictions
        if self.pages is not None:
            written["pages"] = self.pages
        return written
