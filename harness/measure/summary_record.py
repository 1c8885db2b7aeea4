"""A run's summary.json as typed records, for the layers that read it (workshop answers, baselines):
one reader, the file's keys named once here. What a run did not measure is None, never a made-up
default; a key the summary must have and lacks is an error naming it."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .summary_error import SummaryError
from .verdict import Verdict


def _required(part: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in part:
        raise SummaryError(f"summary.json: {where} has no {key!r}")
    return part[key]


@dataclasses.dataclass(frozen=True)
class Window:
    """A cell's model window (its "predicted"): when the client hears of the failure, s after the fault."""
    expected_s: float | None        # None: the model expects no error at all
    earliest_s: float | None
    latest_s: float | None
    basis: str | None
    base_rto_s: float | None        # the RTO the kernel measured for the socket, when it was
    send_by_s: float | None

    @classmethod
    def read(cls, part: Mapping[str, Any], where: str) -> Window:
        return cls(_required(part, "expected_s", where), part.get("earliest_s"), part.get("latest_s"),
                   part.get("basis"), part.get("base_rto_s"), part.get("send_by_s"))

    def holds(self, *values: float, slack_s: float = 0.0005) -> bool:
        """Whether every value lies in the window (to the millisecond); never for a window without an error."""
        if self.expected_s is None or self.earliest_s is None or self.latest_s is None:
            return False
        return all(self.earliest_s - slack_s <= v <= self.latest_s + slack_s for v in values)

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None or k == "expected_s"}


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What a cell's probe measured (signals/probe/record.py ProbePart)."""
    detect_s: float | None          # the first error after the fault, s after it
    recover_s: float | None         # the first success after that
    error: str | None
    stall_s: float | None
    server_after: str | None
    never_worked: str | None
    within_window: bool | None      # None: not decided by the run's end
    verdict: Verdict | None         # None: a summary written before verdicts had three values
    waits_for_a_lost_answer: bool = False   # the old server ACKed the request in flight and never answered

    @classmethod
    def read(cls, part: Mapping[str, Any], where: str) -> Outcome:
        verdict = Verdict.read(part["verdict"], f"{where}'s verdict") if "verdict" in part else None
        return cls(_required(part, "detect_s", where), _required(part, "recover_s", where), part.get("error"),
                   part.get("stall_s"), part.get("server_after"), part.get("never_worked"),
                   verdict.within_window if verdict else part.get("within_window"), verdict,
                   bool(part.get("waits_for_a_lost_answer")))


@dataclasses.dataclass(frozen=True)
class SysbenchOutcome:
    """What a cell's sysbench measured (signals/sysbench)."""
    detect_s: float | None
    recover_s: float | None
    stalled_s: float | None
    crashed: bool

    @classmethod
    def read(cls, part: Mapping[str, Any]) -> SysbenchOutcome:
        return cls(part.get("detect_s"), part.get("recover_s"), part.get("stalled_s"), bool(part.get("crashed")))


@dataclasses.dataclass(frozen=True)
class NoticeModel:
    """When the control plane's own timers say it changes the director (its lb part's "model")."""
    earliest_s: float
    latest_s: float
    expected_s: float | None
    basis: str | None

    @classmethod
    def read(cls, part: Mapping[str, Any], where: str) -> NoticeModel:
        return cls(_required(part, "earliest_s", where), _required(part, "latest_s", where), part.get("expected_s"),
                   part.get("basis"))


@dataclasses.dataclass(frozen=True)
class LbSplit:
    """The outage in two where a control plane acted by itself (signals/lb/record.py LbPart)."""
    noticed_s: float | None
    noticed_by_s: float | None
    client_noticed_s: float | None
    client_noticed_from_s: float | None
    within_model: bool | None
    director: str | None = None     # None: a summary written before the part named its director
    change: str | None = None       # what the director's change was ('swap mysql: ...'), when it made one
    model: NoticeModel | None = None

    @classmethod
    def read(cls, part: Mapping[str, Any]) -> LbSplit:
        model = NoticeModel.read(part["model"], "the lb part's model") if part.get("model") else None
        return cls(part.get("noticed_s"), part.get("noticed_by_s"), part.get("client_noticed_s"),
                   part.get("client_noticed_from_s"), part.get("within_model"), part.get("director"),
                   part.get("change"), model)


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
class ZooClient:
    """A cell's client when it is not the lab's probe (signals/probe/record.py ClientPart)."""
    name: str
    settings: Mapping[str, Any]     # its driver's own settings, as the cell gave them
    driver: str | None
    saw: str | None                 # what the application was told
    reconnect_s: float | None
    dead_connections_handed_out: int
    socket_options_applied: Mapping[str, int]   # {option: what the kernel read back}

    @classmethod
    def read(cls, part: Mapping[str, Any], where: str) -> ZooClient:
        return cls(_required(part, "name", where), part.get("settings") or {}, part.get("driver"), part.get("saw"),
                   part.get("reconnect_s"), part.get("dead_connections_handed_out", 0),
                   part.get("socket_options_applied") or {})


@dataclasses.dataclass(frozen=True)
class FailoverCell:
    name: str
    knobs: Mapping[str, Any]
    probe: Outcome
    predicted: Window
    lb: LbSplit | None              # None: no control plane acting by itself
    query_latency: Mapping[str, Any] | None
    survived: bool | None = None    # None: a summary written before cells said so
    sysbench: SysbenchOutcome | None = None     # None: the cell ran no sysbench
    client: ZooClient | None = None  # None: the lab's own probe
    parts: Mapping[str, Any] = dataclasses.field(default_factory=dict)   # the cell as written: each signal
                                    # reads its own part of it (signals/*/record.py)

    @classmethod
    def read(cls, part: Mapping[str, Any]) -> FailoverCell:
        name = _required(part, "cell", "a cell")
        where = f"cell {name!r}"
        return cls(name, part.get("knobs") or {}, Outcome.read(_required(part, "probe", where), f"{where}'s probe"),
                   Window.read(_required(part, "predicted", where), f"{where}'s predicted"),
                   LbSplit.read(part["lb"]) if part.get("lb") else None, part.get("query_latency"),
                   part.get("survived"), SysbenchOutcome.read(part["sysbench"]) if part.get("sysbench") else None,
                   ZooClient.read(part["client"], f"{where}'s client") if part.get("client") else None, part)


@dataclasses.dataclass(frozen=True)
class BurstCell:
    name: str
    server: str
    target: str                     # what the burst connects to (measure/burst.py)
    connect_steps: Mapping[str, int]
    statuses: Mapping[str, int]
    errors: Mapping[str, int]
    server_counters: Mapping[str, int]
    nginx_statuses: Mapping[str, int]

    @classmethod
    def read(cls, part: Mapping[str, Any]) -> BurstCell:
        name = _required(part, "cell", "a cell")
        where = f"cell {name!r}"
        return cls(name, *(_required(part, key, where) for key in ("server", "target", "connect_steps", "statuses",
                                                                     "errors", "server_counters", "nginx_statuses")))


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
                      RunStatus.read(summary.get("status")))
