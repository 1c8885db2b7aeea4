"""An exercise's answers in the run's own figures: {cell.field} placeholders in its text filled
from the run's summary (measure/summary_record.py). Pure."""
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..measure.summary_record import BurstCell, FailoverCell, LbSplit, RunSummary

PLACEHOLDER_RE = re.compile(r"\{([A-Za-z0-9_-]+)\.([a-z0-9_]+)\}")


def _s(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.1f} s" if value < 100 else f"{value:.0f} s ({value / 60:.1f} min)"


def _outcome(cell: FailoverCell, summary: RunSummary) -> str:
    p = cell.probe
    if p.detect_s is not None:
        text = f"first error after {_s(p.detect_s)}"
        return text + (f", back on {p.server_after} after {_s(p.recover_s)}" if p.recover_s is not None else "")
    if p.recover_s is not None:
        return f"no error, stalled {_s(p.stall_s)}, answering again after {_s(p.recover_s)}"
    if cell.predicted.expected_s is not None:
        watched = summary.observed_s
        return "no error yet when the run stopped watching" + (f" {_s(watched)} after the fault" if watched else "")
    return "no error at all"


def _window(cell: FailoverCell) -> str:
    w = cell.predicted
    return "never" if w.expected_s is None else f"{w.earliest_s:.1f}–{w.latest_s:.1f} s"


def _ms(part: Mapping[str, Any] | None, key: str, phase: str = "during") -> str:
    value = (part or {}).get("phases", part or {}).get(phase, {}).get(key)
    return "—" if value is None else f"{value:.0f} ms"


def _flaps(part: Mapping[str, Any] | None) -> str:
    if not part:
        return "—"
    return str(sum(server["flaps"] for d in part["directors"].values() for server in d.get("during", {}).values()))


def _between(lb: LbSplit | None, low: str, high: str) -> str:
    start, end = (getattr(lb, low), getattr(lb, high)) if lb else (None, None)
    if start is None:
        return "—"
    return f"{start:.1f}–{end:.1f} s" if end is not None and abs(end - start) >= 0.05 else _s(start)


FAILOVER_FIELDS: dict[str, Callable[[FailoverCell, RunSummary], str]] = {
    "detect": lambda c, s: _s(c.probe.detect_s) if c.probe.detect_s is not None else "no error",
    "recover": lambda c, s: _s(c.probe.recover_s),
    "expected": lambda c, s: _s(c.predicted.expected_s) if c.predicted.expected_s else "never",
    "window": lambda c, s: _window(c),
    "error": lambda c, s: c.probe.error or "no error",
    "server": lambda c, s: c.probe.server_after or "—",
    "outcome": _outcome,
    # the outage in two, where a control plane acted by itself (signals/lb/)
    "lb_noticed": lambda c, s: _between(c.lb, "noticed_s", "noticed_by_s"),
    "client_noticed": lambda c, s: _between(c.lb, "client_noticed_s", "client_noticed_from_s"),
    # latency while the fault lasted (load.connect: signals/connect/, connect_latency.py)
    "query_p50": lambda c, s: _ms(c.query_latency, "p50"),
    "query_p99_9": lambda c, s: _ms(c.query_latency, "p99_9"),
    "connect_p50": lambda c, s: _ms(s.signals.get("connect"), "p50"),
    "connect_p99_9": lambda c, s: _ms(s.signals.get("connect"), "p99_9"),
    # what health checks did while it lasted, over every director (signals/health_checks/)
    "flaps": lambda c, s: _flaps(s.signals.get("health_checks")),
}


def _counts(mapping: Mapping[str, int]) -> str:
    return ", ".join(f"{key}×{count}" for key, count in mapping.items()) or "none"


BURST_FIELDS: dict[str, Callable[[BurstCell, RunSummary], str]] = {
    "connect_steps": lambda c, s: "connects at " + ", ".join(f"~{k}: {v}" for k, v in c.connect_steps.items()),
    "statuses": lambda c, s: _counts(c.statuses),
    "errors": lambda c, s: _counts(c.errors),
    "overflows": lambda c, s: str(c.server_counters["TcpExtListenOverflows"]),
}


def placeholders(text: str) -> list[tuple[str, str]]:
    return PLACEHOLDER_RE.findall(text)


def fill(text: str, summary: RunSummary) -> str:
    """text with each {cell.field} replaced by that cell's figure in the run (or a note that the
    run has no such cell: an interrupted run may have measured fewer)."""
    def one(match: re.Match[str]) -> str:
        name, field = match.group(1), match.group(2)
        if summary.kind == "burst":
            burst = {c.name: c for c in summary.burst_cells}
            if name in burst and field in BURST_FIELDS:
                return BURST_FIELDS[field](burst[name], summary)
        else:
            cell = summary.cell(name)
            if cell is not None and field in FAILOVER_FIELDS:
                return FAILOVER_FIELDS[field](cell, summary)
        return f"[{name}.{field}: not in this run]"
    return PLACEHOLDER_RE.sub(one, text)
