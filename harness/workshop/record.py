"""The kit's measured answers as data (docs/workshop/facilitator/answers.json): for each exercise,
the run that answered it, where and how long it took, each {cell.field} figure of its lesson, and
each named cell's verdict against the kernel model's window. answers.md, the exercise tables and
the plan's minutes are written from it, so each figure is stated once. Pure."""
import json
from collections.abc import Mapping
from typing import Any
import re
from pathlib import Path

from ..measure.summary_record import FailoverCell, RunSummary
from . import answers
from .exercises import Exercise

# The figures of a lesson measured against the kernel model's window: two runs agree on one when
# the cell's error lay inside its window both times (or neither run saw an error at all).
TIMED_FIELDS = ("detect", "recover", "outcome", "expected", "window")
# Counts with no model behind them (a burst's connects per band, its statuses): two runs agree on
# one when its words are the same and each count is within one, or a quarter, of the other.
COUNT_FIELDS = ("connect_steps", "statuses", "errors", "overflows", "flaps")
# When the control plane noticed, against its own timing model (signals/lb/): two runs agree when
# it noticed inside that model both times; the client's part after it, when the cell's error was
# inside its window too (each end of the span inside its model).
LB_FIELDS = ("lb_noticed", "client_noticed")
# Latency percentiles while a stall lasted (ms, no model): the lesson tells a 1 s SYN
# retransmission from anything far below it, so two agree within a quarter of each other, or when
# both are under a tenth of that second (a 6.12 guest's medians were 12 ms, then 3 ms, one machine).
LATENCY_FIELDS = ("connect_p50", "query_p50", "connect_p99_9", "query_p99_9")
NOT_A_STALL_MS = 100
NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")


def entry(ex: Exercise, summary: RunSummary, env: Mapping[str, Any], seconds: float | None) -> dict[str, Any]:
    """What a run of exercise ex says: its figures, its cells' verdicts, where it ran, how long."""
    named = {cell for cell, _ in answers.placeholders(ex.teaches)}
    cells = {c.name: c for c in summary.cells}
    verdicts = {name: _verdict(cells[name]) for name in sorted(named) if name in cells}
    return {"title": ex.title, "scenario": ex.scenario, "kernel": ex.kernel, "run": summary.run,
            "where": (env.get("where") or {}).get("where", "host"),
            "measured_on": summary.kernel or env.get("kernel"),
            "datapath": summary.datapath or env.get("datapath"),
            "seconds": None if seconds is None else round(seconds, 1),
            "figures": {f"{cell}.{field}": answers.fill(f"{{{cell}.{field}}}", summary)
                        for cell, field in answers.placeholders(ex.teaches)},
            "verdicts": verdicts, "answer": answers.fill(ex.teaches, summary)}


def _verdict(cell: FailoverCell) -> dict[str, float | bool | str | None]:
    verdict: dict[str, float | bool | str | None] = {"detect_s": cell.probe.detect_s,
                                                     "within_window": cell.probe.within_window}
    if cell.probe.verdict is not None and cell.probe.verdict.value == "unknown":
        verdict["unknown"] = cell.probe.verdict.why
    if cell.lb is not None:
        verdict["lb_within_model"] = cell.lb.within_model
    return verdict


def differences(committed: Mapping[str, Any], new: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """[(figure, committed, now)] where a new run's lesson disagrees with the committed one: a
    timed figure of a cell that was not in its model window both times, or any other figure
    whose words changed. [] when they agree."""
    found: list[tuple[str, Any, Any]] = []
    for key, now in new["figures"].items():
        before = committed.get("figures", {}).get(key)
        if before == now:
            continue
        cell, field = key.split(".", 1)
        if field in TIMED_FIELDS and _agree_by_window(committed.get("verdicts", {}).get(cell),
                                                      new["verdicts"].get(cell)):
            continue
        if field in COUNT_FIELDS and before is not None and _counts_agree(before, now):
            continue
        if field in LB_FIELDS and _agree_by_lb_model(field, committed.get("verdicts", {}).get(cell),
                                                     new["verdicts"].get(cell)):
            continue
        if field in LATENCY_FIELDS and before is not None and _latencies_agree(before, now):
            continue
        found.append((key, before, now))
    return found


def _counts_agree(before: str, now: str) -> bool:
    if NUMBER_RE.split(before) != NUMBER_RE.split(now):
        return False
    pairs = zip(map(float, NUMBER_RE.findall(before)), map(float, NUMBER_RE.findall(now)))
    return all(abs(a - b) <= max(1.0, 0.25 * max(a, b)) for a, b in pairs)


def _agree_by_lb_model(field: str, before: Mapping[str, Any] | None, now: Mapping[str, Any] | None) -> bool:
    if not before or not now or not (before.get("lb_within_model") and now.get("lb_within_model")):
        return False
    return field == "lb_noticed" or (before["within_window"] is True and now["within_window"] is True)


def _latencies_agree(before: str, now: str) -> bool:
    try:
        a, b = (float(text.removesuffix(" ms")) for text in (before, now))
    except ValueError:
        return False
    return abs(a - b) <= 0.25 * max(a, b) or max(a, b) < NOT_A_STALL_MS


def _agree_by_window(before: Mapping[str, Any] | None, now: Mapping[str, Any] | None) -> bool:
    if not before or not now:
        return False
    if before["detect_s"] is None and now["detect_s"] is None:
        return True                      # no error either time (its error due after the run's watch)
    return before["within_window"] is True and now["within_window"] is True


def ran_where_it_asks(ex: Exercise, entry_: Mapping[str, Any]) -> bool:
    """Whether a record's run ran where the exercise says: this host, or a guest of its series."""
    if ex.kernel == "host":
        return entry_.get("where", "host") == "host"
    return str(entry_.get("measured_on") or "").startswith(f"{ex.kernel}.")


def load(path: str | Path) -> dict[int, Any]:
    path = Path(path)
    return {int(k): v for k, v in json.loads(path.read_text()).items()} if path.exists() else {}


def dump(record: Mapping[int, Any]) -> str:
    return json.dumps({str(k): record[k] for k in sorted(record)}, indent=1, ensure_ascii=False) + "\n"
