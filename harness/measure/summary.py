"""A failover run's per-cell results (summary.json), computed only from its files."""
from ..effects import Effect
from ..faults import effect_of
from ..scenario.clients import DEFAULT_CLIENT
from . import client_log, kernel_model, probe_log, recovery, ss_log, sysbench_log
from .predict import predict


def first_fault(events):
    return next((e for e in events if e.get("source") == "harness" and e["event"] == "fault"), None)


def heal_of(events, fault):
    """When the first fault was healed by a heal step (not by the end-of-run cleanup)."""
    return next((e for e in events if e.get("source") == "harness" and e["event"] == "heal"
                 and e["name"] == fault["name"] and e["t"] >= fault["t"]), None)


def observed_until(events, fault):
    """Seconds after the fault when the observation ended (None: no record of its end)."""
    end = next((e for e in events if e.get("source") == "harness" and e["event"] == "observe_end"), None)
    return end["t"] - fault["t"] if end else None


def run_status(events):
    """completed, or interrupted (by which signal, in which phase, when), or failed (why)."""
    harness = [e for e in events if e.get("source") == "harness"]
    interrupted = next((e for e in harness if e["event"] == "interrupted"), None)
    if interrupted:
        return {"state": "interrupted", "by": interrupted.get("signal", "SIGINT"),
                "phase": interrupted.get("phase"), "t": interrupted["t"]}
    failed = next((e for e in harness if e["event"] == "failed"), None)
    if failed:
        return {"state": "failed", "reason": failed.get("error"), "phase": failed.get("phase"), "t": failed["t"]}
    return {"state": "completed"}


def fault_effect(fault):
    """The effect the fault event declares. Runs recorded before faults wrote it get it from the
    fault's own declaration (the registry), not from anything measurement knows."""
    if "effect" in fault:
        return Effect.from_record(fault["effect"])
    return effect_of(fault["name"], fault["params"])


def next_operation(ops, after_t):
    """The first operation started after `after_t`: how long it took, or its error."""
    op = next((o for o in ops if o["t0"] >= after_t - 0.001), None)
    if op is None:
        return None
    return {"took_s": round(op["t1"] - op["t0"], 3), "ok": op["ok"], "error": op.get("error"),
            "server": op.get("server")}


def first_connection_samples(run, cell, probe_text):
    """The ss samples of the cell's first probe connection (the one a fault catches), taken by
    the sampler of the cell's container; [] when there are none."""
    ss_path = run.ss_samples(cell.namespace)
    ports = probe_log.local_ports(probe_text)
    if not ss_path.exists() or not ports:
        return []
    return list(ss_log.by_port(ss_path).get(ports[0], []))


def summarize(run):
    """run: a store.RunDir of a failover run."""
    scenario, events, env = run.scenario, run.events(), run.env()
    fault = first_fault(events)
    status = run_status(events)
    summary = {"scenario": scenario.id, "run": run.name, "kernel": env.get("kernel"),
               "datapath": env.get("datapath"), "status": status, "fault": fault, "cells": []}
    if fault is None:
        summary["note"] = "no fault step ran (the run stopped before it" + (
            f": {status['state']} while {status['phase']})" if status["state"] != "completed" else ")")
        return summary
    t_fault = fault["t"]
    effect = fault_effect(fault)
    heal = heal_of(events, fault)
    healed_after = heal["t"] - t_fault if heal else None
    interval_s = scenario.probe.interval_ms / 1000
    lb = {"datapath": env.get("datapath"), **env.get("director", {})}
    hz = (env.get("where") or {}).get("hz") or kernel_model.HZ
    observed_s = observed_until(events, fault)
    summary["observed_s"] = None if observed_s is None else round(observed_s, 3)
    for cell in scenario.cells:
        probe_text = run.read(run.probe_log(cell.name))
        ops = probe_log.parse(probe_text)
        outcome = recovery.probe_outcome(ops, t_fault)
        idle = probe_log.idle_period(probe_text)
        idle_rel = (idle[0] - t_fault, idle[1] - t_fault if idle[1] else None) if idle else None
        rto0 = ss_log.base_rto_s(first_connection_samples(run, cell, probe_text), t_fault)
        window = predict(cell, effect, interval_s, fault["uncertainty_s"], healed_after, idle_rel, rto0, lb, hz)
        entry = {
            "cell": cell.name,
            "knobs": {"tcp_retries2": cell.knob("tcp_retries2"), **dict(cell.sysctls),
                      "tcp_user_timeout_ms": cell.tcp_user_timeout_ms,
                      "keepalive": "/".join(map(str, cell.keepalive)) or None,
                      "read_timeout_s": cell.read_timeout_s, "idle_s": cell.idle_s},
            "predicted": {"expected_s": window.expected_s, "earliest_s": window.earliest_s,
                          "latest_s": window.latest_s, "basis": window.basis, "base_rto_s": rto0},
            "survived": not outcome.disrupted,
            "probe": {**outcome.__dict__, "within_window": _verdict(window, outcome, status, observed_s),
                      "ratio": (round(outcome.detect_s / window.expected_s, 3)
                                if outcome.detect_s is not None and window.expected_s else None)},
        }
        if cell.client != DEFAULT_CLIENT:
            entry["client"] = {"name": cell.client, "settings": dict(cell.client_settings),
                               **client_log.client_entry(probe_text, ops, t_fault, outcome)}
        log = run.sysbench_log(cell.name)
        if scenario.runs_sysbench(cell) and log.exists():
            entry["sysbench"] = _sysbench_entry(log.read_text(), t_fault, window)
        if idle_rel and idle_rel[1] is not None:
            entry["after_idle"] = next_operation(ops, idle[1])
        summary["cells"].append(entry)
    return summary


def _verdict(window, outcome, status, observed_s=None):
    """In the model's window or not; None when the run ended before this cell's outcome was
    decided: no error yet where the model expects one, and the run interrupted, failed, or
    done watching before the model's window opened (a 15-minute hang in a 1-minute run)."""
    if outcome.detect_s is None and window.expected_s is not None:
        if status["state"] != "completed" or (observed_s is not None and observed_s < window.earliest_s):
            return None
    return window.contains(outcome.detect_s)


def _sysbench_entry(text, t_fault, window):
    outcome = recovery.sysbench_outcome(sysbench_log.parse(text), t_fault)
    # sysbench reports once a second: its detection may lag the probe's window by one line.
    late_ok = window.expected_s is not None and outcome.detect_s is not None and (
        window.earliest_s <= outcome.detect_s <= window.latest_s + 1.0)
    return {**outcome.__dict__, "crashed": sysbench_log.crashed(text),
            "within_window": late_ok if window.expected_s is not None else outcome.detect_s is None,
            "socket_options_applied": sysbench_log.socket_options(text)}
