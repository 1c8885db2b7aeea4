"""Several runs of one scenario side by side (other kernels, other machines, a room of
participants): per cell, each run's detect and recover beside its own model window, and the
differences worth a look, each with what explains it.

A difference is flagged when two runs' detect times differ by more than the baseline tolerance
(measure/baseline.py: from the cells' model windows). It is explained when both runs are inside
their own model windows (the model moved, with the measured base RTO or HZ); otherwise it is
a finding."""
from collections.abc import Mapping, Sequence
from typing import Any

from . import baseline, kernel_facts
from .summary_record import Window

ROUNDING_S = 0.0005           # half the millisecond summary.json rounds its times to


def _cell_view(cell: Mapping[str, Any], env: Mapping[str, Any], observed_s: float | None = None,
               lb_run: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """observed_s: how long after the fault the run watched (a cell without an error was still
    waiting then); lb_run: the lb signal's part of the run (a replica the control plane promoted by
    itself, Patroni's; the change a scenario step made, manual's swap or dns's re-pointed name)."""
    p, w, lb = cell["probe"], cell["predicted"], cell.get("lb") or {}
    promotion, stepped = (lb_run or {}).get("promotion"), (lb_run or {}).get("stepped")
    return {"lb_noticed_s": [lb["noticed_s"], lb["noticed_by_s"]] if lb.get("change") else None,
            "promoted": [promotion["by"], promotion["promoted_s"]] if promotion else None,
            "stepped": [stepped["what"], stepped["at_s"]] if stepped else None,
            "detect_s": p["detect_s"], "recover_s": p["recover_s"], "error": p["error"], "observed_s": observed_s,
            "within_window": p["within_window"], "unknown": _unknown(p),
            "expected_s": w["expected_s"], "earliest_s": w["earliest_s"],
            "latest_s": w["latest_s"], "basis": w["basis"], "base_rto_s": w.get("base_rto_s"),
            "hz": (env.get("where") or {}).get("hz")}


def _unknown(probe: Mapping[str, Any]) -> str | None:
    """Why the run could not judge the cell (its verdict unknown: measure/verdict.py), else None."""
    verdict = probe.get("verdict") or {}
    return verdict.get("why") if verdict.get("value") == "unknown" else None


def _explain(ref_label: str, ref: Mapping[str, Any], label: str, other: Mapping[str, Any]) -> str | None:
    undecided = [f"{name} ({c['unknown']})" for name, c in ((ref_label, ref), (label, other)) if c.get("unknown")]
    if undecided:
        return f"not decided on {'; '.join(undecided)}"
    if (ref["detect_s"] is None) != (other["detect_s"] is None):
        who = label if other["detect_s"] is not None else ref_label
        return f"only {who} saw an error" + ("" if False not in (ref["within_window"], other["within_window"])
                                              else "; not what the model says: a finding")
    outside = [name for name, c in ((ref_label, ref), (label, other)) if c["within_window"] is False]
    if outside:
        return f"outside the model window on {', '.join(outside)}: a finding"
    reasons = []
    if ref["base_rto_s"] and other["base_rto_s"] and abs(ref["base_rto_s"] - other["base_rto_s"]) >= 0.001:
        reasons.append(f"base RTO {ref['base_rto_s'] * 1000:.0f} ms on {ref_label}, "
                       f"{other['base_rto_s'] * 1000:.0f} ms on {label} (the ladder scales with it)")
    if ref["hz"] and other["hz"] and ref["hz"] != other["hz"]:
        reasons.append(f"HZ {ref['hz']} vs {other['hz']} (timer granularity)")
    return "both inside their model windows: " + ("; ".join(reasons) or "within the spread the model allows")


def compare(runs: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any]]], interval_s: float = 0.1) -> dict[str, Any]:
    """runs: [(label, summary, env), ...], the first the reference. Returns a JSON-able dict."""
    labels = [label for label, _, _ in runs]
    scenario_of = {label: summary["scenario"] for label, summary, _ in runs}
    views = {label: {c["cell"]: _cell_view(c, env, summary.get("observed_s"),
                                           (summary.get("signals") or {}).get("lb"))
                     for c in summary["cells"]}
             for label, summary, env in runs}
    names = []
    for label in labels:
        names += [n for n in views[label] if n not in names]
    ref_label = labels[0]
    cells = []
    for name in names:
        by_run = {label: views[label].get(name) for label in labels}
        flags: list[dict[str, Any]] = []
        ref = by_run[ref_label]
        for label in labels[1:]:
            other = by_run[label]
            if ref is None or other is None:
                if scenario_of[label] == scenario_of[ref_label]:
                    flags.append({"run": label, "what": f"cell missing on {ref_label if ref is None else label}"})
                continue
            tolerance = baseline.tolerance_s(baseline.BaselineCell(name, ref["detect_s"], _model(ref)), interval_s,
                                             _model(other))
            both = ref["detect_s"] is not None and other["detect_s"] is not None
            # the summaries' figures are rounded to the ms: a difference equal to the tolerance there is not over it
            if both and abs(ref["detect_s"] - other["detect_s"]) <= tolerance + ROUNDING_S:
                continue
            if ref["detect_s"] is None and other["detect_s"] is None:
                continue
            delta = other["detect_s"] - ref["detect_s"] if both else None
            flags.append({"run": label, "delta_s": None if delta is None else round(delta, 3),
                          "tolerance_s": round(tolerance, 3), "what": _explain(ref_label, ref, label, other)})
        cells.append({"cell": name, "by_run": by_run, "flags": flags})
    return {"runs": [{"label": label, "scenario": summary["scenario"], "run": summary["run"],
                      "kernel": summary.get("kernel"), "datapath": summary.get("datapath"),
                      "control": env.get("control_plane", "manual"),
                      "where": (env.get("where") or {}).get("where", "host")} for label, summary, env in runs],
            "reference": ref_label, "cells": cells, "kernel_facts": kernel_facts.facts_table(runs)}


def _model(view: Mapping[str, Any]) -> Window:
    return Window(view["expected_s"], view["earliest_s"], view["latest_s"], None, None, None)
