"""The connect signal's parts of summary.json: connection setup through the VIP for the run,
and each cell's queries by phase."""
from typing import NotRequired, TypedDict


class Stats(TypedDict):
    n: int
    ok: int
    failed: int
    p50: float | None                # ms, of the established ones
    p99: float | None
    p99_9: float | None
    max: float | None
    by_error: NotRequired[dict[str, int]]


class Phases(TypedDict):
    before: Stats
    during: Stats
    after: NotRequired[Stats]


class PerSecond(Stats):
    t: int                           # whole seconds after the fault


class SynGroup(TypedDict):
    ok: int
    failed: int
    min_s: float | None
    max_s: float | None


class SynSchedule(TypedDict):
    tcp_syn_retries: int
    tcp_syn_linear_timeouts: int
    retransmitted_at_s: list[float]


class Stalls(TypedDict):
    count: int
    min_s: float
    max_s: float


class StallsPart(TypedDict, total=False):
    """The stalls a fault's target logged (faults/rx_stall.py), and the connects split by whether they met one."""
    stalls: Stalls
    met_a_stall: Stats
    met_no_stall: Stats


ConnectRun = TypedDict("ConnectRun", {   # functional: one key is "from"
    "port": int, "rate_per_s": float, "timeout_s": float,
    "from": str,                     # the namespace the connects came from
    "sent": int, "skipped": int | None, "healed_after_s": float | None,
    "phases": Phases, "by_syn_retransmissions": dict[int, SynGroup], "syn_schedule": SynSchedule,
    "per_second": list[PerSecond],
    "stalls": NotRequired[Stalls], "met_a_stall": NotRequired[Stats], "met_no_stall": NotRequired[Stats],
})


class ConnectCell(TypedDict, total=False):
    query_latency: Phases
