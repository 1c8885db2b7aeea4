"""Where a failover run's wall time went, from what it wrote: its harness events and its summary.

The phases follow one another: lab up, the clients until every one answered, the warm-up, the
faults, observing until the last client was back, the rest of the observation (the grace and the
poll that noticed), then each cleanup group (steps in one group ran side by side).
"""
from collections.abc import Mapping, Sequence
from typing import Any

Event = Mapping[str, Any]     # one line of events.jsonl


def _harness(events: Sequence[Event]) -> list[Event]:
    return [e for e in events if e.get("source") == "harness"]


def _first(events: Sequence[Event], name: str) -> Event | None:
    return next((e for e in events if e["event"] == name), None)


def first_t(events: Sequence[Event], name: str) -> float | None:
    """When the harness first recorded the event `name` (None: never)."""
    found = _first(_harness(events), name)
    return found["t"] if found else None


def last_recovery_t(summary: Mapping[str, Any], fault_t: float) -> float | None:
    """When the last cell's probe was back, on the run's clock (None: some cell never came back)."""
    recovered = [c["probe"].get("recover_s") for c in summary["cells"]]
    if not recovered or any(r is None for r in recovered):
        return None
    return fault_t + max(recovered)


def cleanup_groups(events: Sequence[Event]) -> list[tuple[str, float, float]]:
    """[(the steps' names, started_t, seconds)] per group of cleanup steps, in order."""
    groups: dict[float, list[Event]] = {}
    for e in events:
        if e["event"] == "cleanup_step":
            groups.setdefault(e["started_t"], []).append(e)
    return [(" | ".join(s["step"] for s in steps), started, max(s["took_s"] for s in steps))
            for started, steps in sorted(groups.items())]


def phases(events: Sequence[Event], summary: Mapping[str, Any]) -> list[tuple[str, float]]:
    """[(phase, seconds)] of a completed run, in order; phases its events lack are left out."""
    harness = _harness(events)
    marks = {name: _first(harness, name) for name in ("lab_starting", "lab_up", "loads_ready", "observe_end")}
    faults = [e for e in harness if e["event"] == "fault"]
    out: list[tuple[str, float]] = []

    def span(name: str, start: float | None, end: float | None) -> None:
        if start is not None and end is not None:
            out.append((name, round(end - start, 3)))

    t = {name: (e["t"] if e else None) for name, e in marks.items()}
    span("lab up", t["lab_starting"], t["lab_up"])
    span("clients start until each answered", t["lab_up"], t["loads_ready"])
    if faults:
        first_started, last_done = faults[0]["started_t"], faults[-1]["done_t"]
        span("warm-up", t["loads_ready"], first_started)
        span("faults applied", first_started, last_done)
        back = last_recovery_t(summary, faults[0]["t"])
        if back is not None and t["observe_end"] is not None and back <= t["observe_end"]:
            span("observing until the last client was back", last_done, back)
            span("observing after that (grace, polling)", back, t["observe_end"])
        else:
            span("observing", last_done, t["observe_end"])
    for steps, _, seconds in cleanup_groups(harness):
        out.append((f"cleanup: {steps}", round(seconds, 3)))
    return out


def cleanup_end_t(events: Sequence[Event]) -> float | None:
    """When the last cleanup step ended (None: no step recorded its time)."""
    ends = [started + seconds for _, started, seconds in cleanup_groups(_harness(events))]
    return max(ends) if ends else None
