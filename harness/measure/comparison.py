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
from .comparison_record import CellView, ComparedCell, ComparedRun, Comparison, Flag
from .summary_record import FailoverCell, RunSummary, Window

ROUNDING_S = 0.0005           # half the millisecond summary.json rounds its times to


def _cell_view(cell: FailoverCell, env: Mapping[str, Any], observed_s: float | None = None,
               lb_run: Mapping[str, Any] | None = None) -> CellView:
    """observed_s: how long after the fault the run watched (a cell without an error was still
    waiting then); lb_run: the lb signal's part of the run (a replica the control plane promoted by
    itself, Patroni's; the change a scenario step made, manual's swap or dns's re-pointed name)."""
    p, w, lb = cell.probe, cell.predicted, cell.lb
    promotion, stepped = (lb_run or {}).get("promotion"), (lb_run or {}).get("stepped")
    noticed = (lb.noticed_s, lb.noticed_by_s) if lb is not None and lb.change else None
    return CellView(noticed,
                    (promotion["by"], promotion["promoted_s"]) if promotion else None,
                    (stepped["what"], stepped["at_s"]) if stepped else None,
                    p.detect_s, p.recover_s, p.error, observed_s, p.within_window,
                    p.verdict.why if p.verdict is not None and p.verdict.value == "unknown" else None,
                    w.expected_s, w.earliest_s, w.latest_s, w.basis, w.base_rto_s, (env.get("where") or {}).get("hz"))


def _explain(ref_label: str, ref: CellView, label: str, other: CellView) -> str:
    undecided = [f"{name} ({c.unknown})" for name, c in ((ref_label, ref), (label, other)) if c.unknown]
    if undecided:
        return f"not decided on {'; '.join(undecided)}"
    if (ref.detect_s is None) != (other.detect_s is None):
        who = label if other.detect_s is not None else ref_label
        return f"only {who} saw an error" + ("" if False not in (ref.within_window, other.within_window)
                                              else "; not what the model says: a finding")
    outside = [name for name, c in ((ref_label, ref), (label, other)) if c.within_window is False]
    if outside:
        return f"outside the model window on {', '.join(outside)}: a finding"
    reasons = []
    if ref.base_rto_s and other.base_rto_s and abs(ref.base_rto_s - other.base_rto_s) >= 0.001:
        reasons.append(f"base RTO {ref.base_rto_s * 1000:.0f} ms on {ref_label}, "
                       f"{other.base_rto_s * 1000:.0f} ms on {label} (the ladder scales with it)")
    if ref.hz and other.hz and ref.hz != other.hz:
        reasons.append(f"HZ {ref.hz} vs {other.hz} (timer granularity)")
    return "both inside their model windows: " + ("; ".join(reasons) or "within the spread the model allows")


def compare(runs: Sequence[tuple[str, RunSummary, Mapping[str, Any]]], interval_s: float = 0.1) -> Comparison:
    """runs: [(label, summary, env.json's mapping), ...], the first the reference."""
    labels = [label for label, _, _ in runs]
    scenario_of = {label: summary.scenario for label, summary, _ in runs}
    views = {label: {c.name: _cell_view(c, env, summary.observed_s, summary.signals.get("lb")) for c in summary.cells}
             for label, summary, env in runs}
    names: list[str] = []
    for label in labels:
        names += [n for n in views[label] if n not in names]
    ref_label = labels[0]
    return Comparison(tuple(ComparedRun(label, summary.scenario, summary.run, summary.kernel, summary.datapath,
                                        env.get("control_plane", "manual"), (env.get("where") or {}).get("where", "host"))
                            for label, summary, env in runs),
                      ref_label, tuple(_compared(name, {label: views[label].get(name) for label in labels}, ref_label,
                                                 scenario_of, interval_s) for name in names),
                      kernel_facts.facts_table(runs))


def _compared(name: str, by_run: Mapping[str, CellView | None], ref_label: str, scenario_of: Mapping[str, str],
              interval_s: float) -> ComparedCell:
    flags = []
    ref = by_run[ref_label]
    for label, other in by_run.items():
        if label == ref_label:
            continue
        if ref is None or other is None:
            if scenario_of[label] == scenario_of[ref_label]:
                flags.append(Flag(label, f"cell missing on {ref_label if ref is None else label}"))
            continue
        tolerance = baseline.tolerance_s(baseline.BaselineCell(name, ref.detect_s, _model(ref)), interval_s, _model(other))
        if ref.detect_s is not None and other.detect_s is not None:
            delta = other.detect_s - ref.detect_s
            # the summaries' figures are rounded to the ms: a difference equal to the tolerance there is not over it
            if abs(delta) <= tolerance + ROUNDING_S:
                continue
        elif ref.detect_s is None and other.detect_s is None:
            continue
        else:
            delta = None
        flags.append(Flag(label, _explain(ref_label, ref, label, other), None if delta is None else round(delta, 3),
                          round(tolerance, 3)))
    return ComparedCell(name, by_run, tuple(flags))


def _model(view: CellView) -> Window:
    return Window(view.expected_s, view.earliest_s, view.latest_s, None, None, None)
