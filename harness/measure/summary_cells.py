"""A run's cells in summary.json as typed records (summary_record.py reads the run around them):
a failover cell's model window, what its probe, sysbench, control plane and client measured; a
burst cell's counts. What a run did not measure is None, never a made-up default."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .summary_error import required as _required
from .verdict import Verdict


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
