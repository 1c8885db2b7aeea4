"""The connect prober's lines (images/client/connect_probe.py): connection-setup latency per
second and per phase of the run, with the count behind every figure, and what the slow and
failed connects ended on (the SYNs their kernel resent).

A percentile of n connects is the nearest-rank one: p99.9 of fewer than 1000 connects is their
maximum, which is why every figure carries its count."""
import dataclasses
import json
import math
from collections.abc import Sequence
from typing import Any

from .record import PerSecond, Phases, Stats, SynGroup

QUANTILES = (("p50", 0.50), ("p99", 0.99), ("p99_9", 0.999))


@dataclasses.dataclass(frozen=True)
class Connect:
    t0: float                 # when connect() was called (wall clock)
    seconds: float | None = None     # until established; None: it failed
    error: str | None = None         # errno name, TIMEOUT or STOPPED
    syn_retrans: int = 0      # SYNs the kernel resent for it

    @property
    def ok(self) -> bool:
        return self.seconds is not None


def parse(text: str) -> tuple[list[Connect], dict[str, Any] | None]:
    """(connects, totals): every connect line, and the prober's last line ({"sent", "skipped"}) or
    None when it did not get to write it. A torn line is skipped."""
    connects: list[Connect] = []
    totals: dict[str, Any] | None = None
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "end" in record:
            totals = record
        elif "t0" in record:
            connects.append(Connect(record["t0"], record.get("s"), record.get("err"), record.get("syn_retrans", 0)))
    return connects, totals


def nearest_rank(sorted_values: Sequence[float], q: float) -> float:
    return sorted_values[max(0, math.ceil(q * len(sorted_values)) - 1)]


def stats(connects: Sequence[Connect]) -> Stats:
    """{n, ok, failed, p50/p99/p99_9/max (ms, of the established ones), by_error}."""
    times = sorted(c.seconds * 1000 for c in connects if c.seconds is not None)
    at = {name: round(nearest_rank(times, q), 3) if times else None for name, q in QUANTILES}
    entry: Stats = {"n": len(connects), "ok": len(times), "failed": len(connects) - len(times), "p50": at["p50"],
                    "p99": at["p99"], "p99_9": at["p99_9"], "max": round(times[-1], 3) if times else None}
    errors: dict[str, int] = {}
    for c in connects:
        if not c.ok:
            what = c.error or "no error recorded"
            errors[what] = errors.get(what, 0) + 1
    if errors:
        entry["by_error"] = dict(sorted(errors.items()))
    return entry


def per_second(connects: Sequence[Connect], t_ref: float) -> list[PerSecond]:
    """[{"t": whole seconds after t_ref the connects started in, **stats}], in time order."""
    buckets: dict[int, list[Connect]] = {}
    for c in connects:
        buckets.setdefault(math.floor(c.t0 - t_ref), []).append(c)
    return [{"t": second, **stats(buckets[second])} for second in sorted(buckets)]


def phases(connects: Sequence[Connect], t_fault: float, t_heal: float | None = None,
           t_ready: float | None = None) -> Phases:
    """stats of the connects started before the fault (from t_ready on: the warm-up, when every
    client answered; not the lab's first seconds), while it lasted (until the heal, or to the end
    without one) and after the heal."""
    before = [c for c in connects if c.t0 < t_fault and (t_ready is None or c.t0 >= t_ready)]
    during = [c for c in connects if c.t0 >= t_fault and (t_heal is None or c.t0 < t_heal)]
    result: Phases = {"before": stats(before), "during": stats(during)}
    if t_heal is not None:
        result["after"] = stats([c for c in connects if c.t0 >= t_heal])
    return result


def by_syn_retransmissions(connects: Sequence[Connect]) -> dict[int, SynGroup]:
    """{SYNs resent: {"ok": n, "failed": n, "min_s", "max_s" (of the established)}}: connection
    setup quantised at the kernel's SYN schedule shows as groups here."""
    groups: dict[int, list[Connect]] = {}
    for c in connects:
        groups.setdefault(c.syn_retrans, []).append(c)
    result: dict[int, SynGroup] = {}
    for count in sorted(groups):
        times = [c.seconds for c in groups[count] if c.seconds is not None]
        result[count] = {"ok": len(times), "failed": len(groups[count]) - len(times),
                         "min_s": round(min(times), 4) if times else None,
                         "max_s": round(max(times), 4) if times else None}
    return result
