"""A run's summary.json as typed records, for the layers that read it (workshop answers, baselines):
one reader, the file's keys named once here. What a run did not measure is None, never a made-up
default; a key the summary must have and lacks is an error naming it. Its cells' records:
summary_cells.py."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .summary_cells import (BurstCell, FailoverCell, LbSplit, NoticeModel, Outcome, SysbenchOutcome, Window,
                            ZooClient)
from .summary_error import required as _required
from .verdict import Verdict

__all__ = ["BurstCell", "DatabaseRan", "FailoverCell", "FaultPart", "LbSplit", "LoadEnded", "NoticeModel", "Outcome",
           "RunStatus", "RunSummary", "Step", "SysbenchOutcome", "Window", "ZooClient", "read"]


@dataclasses.dataclass(frozen=True)
class Step:
    """A fault or heal step the run made, at its time after the fault (signals/combined.py steps)."""
    event: str                      # "fault" or "heal"
    name: str
    params: Mapping[str, Any]
    at_s: float

    @classmethod
    def read(cls, part: Mapping[str, Any]) -> Step:
        return cls(_required(part, "event", "a step"), _required(part, "name", "a step"), part.get("params") or {},
                   _required(part, "at_s", "a step"))


@dataclasses.dataclass(frozen=True)
class FaultPart:
    """The fault the run's times count from, as its event recorded it (run/steps.py)."""
    name: str
    params: Mapping[str, Any]
    t: float                        # when it took effect, on the lab's clock
    uncertainty_s: float | None     # how much later than t it may have taken effect (None: not recorded)
    seen: Mapping[str, Any]         # what the fault itself saw as it landed (empty: nothing)

    @classmethod
    def read(cls, part: Mapping[str, Any]) -> FaultPart:
        return cls(_required(part, "name", "the fault"), part.get("params") or {}, _required(part, "t", "the fault"),
                   part.get("uncertainty_s"), part.get("seen") or {})


@dataclasses.dataclass(frozen=True)
class LoadEnded:
    """A load that ended during the run, and how (the run stopped waiting for it)."""
    cell: str
    load: str                       # "sysbench", "probe", ...
    how: str                        # "exited -11", "crashed", ...
    at_s: float                     # when the run saw it, s after the fault

    @classmethod
    def read(cls, part: Mapping[str, Any]) -> LoadEnded:
        return cls(*(_required(part, key, "an ended load") for key in ("cell", "load", "how", "at_s")))


@dataclasses.dataclass(frozen=True)
class DatabaseRan:
    """What the run's database servers ran (signals/combined.py database_ran)."""
    engine: str
    version: str | None             # None: the servers did not report one the engine's pattern reads

    @classmethod
    def read(cls, part: Mapping[str, Any] | None) -> DatabaseRan:
        if not part:
            return cls("mariadb", None)     # a summary written before engines were recorded: MariaDB ran
        return cls(_required(part, "engine", "the database"), part.get("version"))


@dataclasses.dataclass(frozen=True)
class RunStatus:
    """How the run ended (measure/run_record.py run_status): completed, interrupted or failed."""
    state: str
    by: str | None = None           # interrupted: the signal
    phase: str | None = None        # interrupted or failed: what the run was doing
    reason: str | None = None       # failed: why
    t: float | None = None          # interrupted or failed: when

    @classmethod
    def read(cls, part: Mapping[str, Any] | None) -> RunStatus:
        if not part:
            return cls("completed")         # a summary written before runs recorded how they ended
        return cls(_required(part, "state", "the run's status"), part.get("by"), part.get("phase"), part.get("reason"),
                   part.get("t"))

    def as_json(self) -> dict[str, Any]:
        """As summary.json has it: a completed run's state alone; an interrupted one's signal, phase and
        time; a failed one's reason, phase and time."""
        if self.state == "interrupted":
            return {"state": self.state, "by": self.by, "phase": self.phase, "t": self.t}
        if self.state == "failed":
            return {"state": self.state, "reason": self.reason, "phase": self.phase, "t": self.t}
        return {"state": self.state}


@dataclasses.dataclass(frozen=True)
class RunSummary:
    scenario: str
    run: str
    kind: str                       # "failover" or "burst"
    kernel: str | None
    datapath: str | None
    observed_s: float | None        # how long after the fault the run watched
    cells: tuple[FailoverCell, ...]
    burst_cells: tuple[BurstCell, ...]
    signals: Mapping[str, Any]      # each signal's run-wide part (signals/*/record.py)
    verdict: Verdict | None         # its cells' composed (None: written before verdicts had three values)
    purpose: str | None = None      # what the scenario sets out to show (its description's first sentence)
    steps: tuple[Step, ...] = ()
    status: RunStatus = RunStatus("completed")
    fault: FaultPart | None = None  # None: no fault step ran (the run stopped before it), or a burst run
    database: DatabaseRan = DatabaseRan("mariadb", None)
    loads_ended: tuple[LoadEnded, ...] = ()
    note: str | None = None         # what the summary says of the run as a whole ('no fault step ran ...')
    servers: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)   # a burst run's, by name
    written: Mapping[str, Any] = dataclasses.field(default_factory=dict)   # summary.json as written: each
                                    # signal's section reads its own parts of it (report/sections.py)

    def cell(self, name: str) -> FailoverCell | None:
        return next((c for c in self.cells if c.name == name), None)


def read(summary: Mapping[str, Any]) -> RunSummary:
    """summary.json's mapping as a RunSummary; a summary lacking a key every run writes is a SummaryError."""
    kind = summary.get("kind") or "failover"          # only a burst run writes its kind
    cells = _required(summary, "cells", "the run")
    return RunSummary(_required(summary, "scenario", "the run"), _required(summary, "run", "the run"), kind,
                      summary.get("kernel"), summary.get("datapath"), summary.get("observed_s"),
                      tuple(FailoverCell.read(c) for c in cells) if kind != "burst" else (),
                      tuple(BurstCell.read(c) for c in cells) if kind == "burst" else (),
                      summary.get("signals") or {},
                      Verdict.read(summary["verdict"], "the run's verdict") if "verdict" in summary else None,
                      summary.get("purpose"), tuple(Step.read(step) for step in summary.get("steps") or ()),
                      RunStatus.read(summary.get("status")),
                      FaultPart.read(summary["fault"]) if summary.get("fault") else None,
                      DatabaseRan.read(summary.get("database")),
                      tuple(LoadEnded.read(e) for e in summary.get("loads_ended") or ()), summary.get("note"),
                      summary.get("servers") or {}, summary)
