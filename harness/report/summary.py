"""summary.json / summary.md of a run, computed only from files in its directory."""
import json
from pathlib import Path

import yaml

from .. import scenario as scenario_module
from ..load import probe
from ..measure import recovery, ss_log, sysbench_log
from ..measure.predict import predict


def read_events(run_dir):
    path = Path(run_dir) / "events.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def load_run_scenario(run_dir):
    raw = yaml.safe_load((Path(run_dir) / "scenario.yaml").read_text())
    return scenario_module.parse(raw["definition"], source="scenario.yaml", scenario_id=raw["id"])


def first_fault(events):
    return next((e for e in events if e.get("source") == "harness" and e["event"] == "fault"), None)


def heal_of(events, fault):
    """When the first fault was healed by a heal step (not by the end-of-run cleanup)."""
    return next((e for e in events if e.get("source") == "harness" and e["event"] == "heal"
                 and e["name"] == fault["name"] and e["t"] >= fault["t"]), None)


def next_operation(ops, after_t):
    """The first operation started after `after_t`: how long it took, or its error."""
    op = next((o for o in ops if o["t0"] >= after_t - 0.001), None)
    if op is None:
        return None
    return {"took_s": round(op["t1"] - op["t0"], 3), "ok": op["ok"], "error": op.get("error"),
            "server": op.get("server")}


def first_connection_samples(run_dir, cell, probe_text):
    """The ss samples of the cell's first probe connection (the one a fault catches), taken by
    the sampler of the cell's container; [] when there are none."""
    ss_path = Path(run_dir) / "namespaces" / cell.namespace / "ss.txt"
    ports = probe.local_ports(probe_text)
    if not ss_path.exists() or not ports:
        return []
    return ss_log.for_ports(ss_log.parse(ss_path.read_text()), ports[:1])


def summarize(run_dir):
    run_dir = Path(run_dir).resolve()
    scenario = load_run_scenario(run_dir)
    events = read_events(run_dir)
    env = json.loads((run_dir / "env.json").read_text()) if (run_dir / "env.json").exists() else {}
    fault = first_fault(events)
    summary = {"scenario": scenario.id, "run": run_dir.name, "kernel": env.get("kernel"),
               "datapath": env.get("datapath"), "fault": fault, "cells": []}
    if fault is None:
        summary["note"] = "no fault step ran (the run stopped before it)"
        return summary
    t_fault = fault["t"]
    heal = heal_of(events, fault)
    healed_after = heal["t"] - t_fault if heal else None
    interval_s = scenario.probe.interval_ms / 1000
    for cell in scenario.cells:
        files = run_dir / "clients" / cell.name
        probe_text = (files / "probe.jsonl").read_text() if (files / "probe.jsonl").exists() else ""
        ops = probe.parse(probe_text)
        outcome = recovery.probe_outcome(ops, t_fault)
        idle = probe.idle_period(probe_text)
        idle_rel = (idle[0] - t_fault, idle[1] - t_fault if idle[1] else None) if idle else None
        rto0 = ss_log.base_rto_s(first_connection_samples(run_dir, cell, probe_text), t_fault)
        lb = {"datapath": env.get("datapath"), **env.get("director", {})}
        window = predict(cell, fault["name"], fault["params"].items(), interval_s, fault["uncertainty_s"],
                         healed_after, idle_rel, rto0, lb)
        entry = {
            "cell": cell.name,
            "knobs": {"tcp_retries2": cell.knob("tcp_retries2"), **dict(cell.sysctls),
                      "tcp_user_timeout_ms": cell.tcp_user_timeout_ms,
                      "keepalive": "/".join(map(str, cell.keepalive)) or None,
                      "read_timeout_s": cell.read_timeout_s, "idle_s": cell.idle_s},
            "predicted": {"expected_s": window.expected_s, "earliest_s": window.earliest_s,
                          "latest_s": window.latest_s, "basis": window.basis, "base_rto_s": rto0},
            "survived": not outcome.disrupted,
            "probe": {**outcome.__dict__, "within_window": window.contains(outcome.detect_s),
                      "ratio": (round(outcome.detect_s / window.expected_s, 3)
                                if outcome.detect_s is not None and window.expected_s else None)},
        }
        log = files / "sysbench.log"
        if scenario.sysbench and cell.sysbench and log.exists():
            text = log.read_text()
            outcome_sb = recovery.sysbench_outcome(sysbench_log.parse(text), t_fault)
            # sysbench reports once a second: its detection may lag the probe's window by one line.
            late_ok = window.expected_s is not None and outcome_sb.detect_s is not None and (
                window.earliest_s <= outcome_sb.detect_s <= window.latest_s + 1.0)
            entry["sysbench"] = {**outcome_sb.__dict__, "crashed": sysbench_log.crashed(text),
                                 "within_window": late_ok if window.expected_s is not None
                                 else outcome_sb.detect_s is None,
                                 "socket_options_applied": sysbench_log.socket_options(text)}
        if idle_rel and idle_rel[1] is not None:
            entry["after_idle"] = next_operation(ops, idle[1])
        summary["cells"].append(entry)
    return summary


def _fmt(value, unit=" s"):
    return "—" if value is None else f"{value:.2f}{unit}" if isinstance(value, float) else str(value)


def table_rows(summary):
    rows = []
    for c in summary["cells"]:
        p, w, sb = c["probe"], c["predicted"], c.get("sysbench", {})
        window = "never" if w["expected_s"] is None else f"{w['earliest_s']:.1f}–{w['latest_s']:.1f} s"
        rows.append([c["cell"], _fmt(p["detect_s"]), window, "yes" if p["within_window"] else "NO",
                     _fmt(p["recover_s"]), p["error"] or "—", p["server_after"] or "—",
                     _fmt(sb.get("detect_s")), _fmt(sb.get("recover_s")),
                     "—" if not sb else str(sb["stalled_s"])])
    return rows


HEADER = ["cell", "detect", "model window", "in window", "recover", "error", "then on",
          "sysbench detect", "sysbench recover", "tps=0 s"]


def markdown(summary):
    fault = summary.get("fault") or {}
    lines = [f"# {summary['scenario']} — {summary['run']}", "",
             f"kernel {summary.get('kernel')}, datapath {summary.get('datapath')}; "
             f"fault `{fault.get('name')}` {fault.get('params', {})}", "",
             "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(summary)]
    if summary.get("note"):
        lines += ["", summary["note"]]
    lines += ["", "Times are seconds after the fault step started (probe: ms precision; sysbench: 1 s lines)."]
    return "\n".join(lines) + "\n"


def terminal_table(summary):
    rows = [HEADER] + table_rows(summary)
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(r, widths)) for r in rows)


def write(run_dir):
    summary = summarize(run_dir)
    Path(run_dir, "summary.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    Path(run_dir, "summary.md").write_text(markdown(summary))
    return summary
