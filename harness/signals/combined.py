"""What the signals of the registry (registry.py) make together: the loads a run starts, and
the run's summary.json."""
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..databases import DATABASES, DEFAULT_DATABASE
from ..measure.run_files import RunFiles
from ..measure.run_record import Event
from ..measure.verdict import Verdict, of_run
from .base import CellRecord, Load, LoadPlan, RunContext
from .registry import SIGNALS
from .retransmissions import report_lag
from .scenario_view import SignalCell, SignalScenario


def planned_loads(plan: LoadPlan) -> list[Load]:
    """Every load the signals need for a run."""
    return [load for signal in SIGNALS.members() for load in signal.loads(plan)]


def database_ran(env: Mapping[str, Any]) -> dict[str, str | None]:
    """{'engine': 'mysql', 'version': '9.7.4-2'}: what the database servers ran, as env.json has it
    (runs before engines were recorded ran MariaDB)."""
    engine = env.get("database", DEFAULT_DATABASE)
    printed = env.get("versions", {}).get(engine, "")
    version = re.search(DATABASES[engine].version_pattern, printed) if engine in DATABASES else None
    return {"engine": engine, "version": version.group(1) if version else None}


def summarize_failover(run: RunFiles, scenario: SignalScenario) -> dict[str, Any]:
    """summary.json's content for a failover run's directory (scenario: the run's, as its directory
    recorded it: scenario.of_run)."""
    context = RunContext(run, scenario)
    status, fault = context.status, context.fault
    summary: dict[str, Any] = {"scenario": context.scenario.id, "run": run.name, "kernel": context.env.get("kernel"),
               "datapath": context.env.get("datapath"), "database": database_ran(context.env), "status": status.as_json(),
               "fault": fault, "cells": []}
    purpose = _first_sentence(context.scenario.description)
    if purpose:
        summary["purpose"] = purpose
    if fault is None:
        summary["note"] = "no fault step ran (the run stopped before it" + (
            f": {status.state} while {status.phase})" if status.state != "completed" else ")")
        summary["verdict"] = of_run([]).as_json()
        return summary
    summary["observed_s"] = None if context.observed_s is None else round(context.observed_s, 3)
    summary["steps"] = steps(context.events, context.t_fault)
    ended = [{"cell": e["cell"], "load": e["load"], "how": e["how"], "at_s": round(e["t"] - context.t_fault, 3)}
             for e in context.events if e.get("source") == "harness" and e["event"] == "load_ended"]
    if ended:
        summary["loads_ended"] = ended
    for cell in context.scenario.cells:
        record = CellRecord(context, cell)
        entry = {"cell": cell.name, "knobs": knobs(cell), "predicted": predicted(record)}
        for signal in SIGNALS.members():
            entry.update(signal.summarize_cell(record))
        summary["cells"].append(entry)
    summary["verdict"] = of_run((c["cell"], Verdict.read(c["probe"]["verdict"], f"cell {c['cell']}"))
                                for c in summary["cells"] if "probe" in c).as_json()
    lags = report_lag.annotate(summary["cells"])      # a cell's report beside its runtime's lag, across the cells
    if lags:
        summary["report_lags"] = lags
    parts = {signal.name: part for signal in SIGNALS.members() if (part := signal.summarize_run(context))}
    if parts:
        summary["signals"] = parts
    return summary


def steps(events: Iterable[Event], t_fault: float) -> list[dict[str, Any]]:
    """Every fault and heal step the run made, each at its time after the fault (report/marks.py)."""
    return [{"event": e["event"], "name": e["name"], "params": e.get("params") or {}, "at_s": round(e["t"] - t_fault, 3)}
            for e in events if e.get("source") == "harness" and e["event"] in ("fault", "heal")]


def _first_sentence(text: str | None) -> str:
    """The description's first sentence, on one line ('' for none)."""
    words = " ".join(str(text or "").split())
    end = words.find(". ")
    return words if end < 0 else words[:end + 1]


def knobs(cell: SignalCell) -> dict[str, Any]:
    return {"tcp_retries2": cell.knob("tcp_retries2"), **dict(cell.sysctls),
            "tcp_user_timeout_ms": cell.tcp_user_timeout_ms, "keepalive": "/".join(map(str, cell.keepalive)) or None,
            "read_timeout_s": cell.read_timeout_s, "idle_s": cell.idle_s,
            **({"account": cell.account} if cell.account != "shared" else {})}


def predicted(record: CellRecord) -> dict[str, Any]:
    window = record.window
    return {"expected_s": window.expected_s, "earliest_s": window.earliest_s, "latest_s": window.latest_s,
            "basis": window.basis, "base_rto_s": record.base_rto_s, "send_by_s": window.send_by_s}
