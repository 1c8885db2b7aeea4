"""Charts of a run (PNG, matplotlib), drawn only from the files the run wrote.

  timeline.png         per cell: successful operations per second, detect and recover marked;
                       sysbench tps per second above it (the seed's picture)
  recovery.png         measured detect/recover per cell beside the model's window (log time)
and after them each signal's own chart (Signal.chart, drawn by its folder's chart.py), in the
registry's order: the retransmission ladder, connection setup per second, the writes' outcomes.
"""
import multiprocessing
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402

from ..measure import probe_log, sysbench_log, wrk_log  # noqa: E402
from ..measure.summary_record import FailoverCell, RunSummary  # noqa: E402
from ..scenario.files import of_run  # noqa: E402
from ..scenario.model import Scenario  # noqa: E402
from ..signals.chart_marks import WIDTH_IN, fault_window, last_recovery_s, legend_under, save  # noqa: E402
from ..signals.registry import SIGNALS  # noqa: E402
from ..signals.wrk import Wrk  # noqa: E402
from ..store import RunDir  # noqa: E402
from . import marks  # noqa: E402
from .headline import still_waiting  # noqa: E402


def timeline(run: RunDir, interval_s: float, summary: RunSummary, path: Path) -> None:
    """interval_s: the probe's, the share of a second one operation stands for."""
    if summary.fault is None:
        raise ValueError(f"{run.path}: a run without a fault has no timeline")
    t_fault = summary.fault.t
    cells = summary.cells
    with_sysbench = [c for c in cells if c.sysbench is not None]
    wrk_seconds = wrk_log.per_second(run.read(Wrk.file(run, "log")))
    rows = len(cells)
    heights = ([2.2] if with_sysbench else []) + ([2.2] if wrk_seconds else []) + [max(1.5, 0.32 * rows + 0.8)]
    fig, axes = plt.subplots(len(heights), 1, figsize=(WIDTH_IN, sum(heights) + 1.2), sharex=True,
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    axes = axes[:, 0]
    ops_by_cell = {c.name: probe_log.parse(run.read(run.probe_log(c.name))) for c in cells}
    all_t = [op["t1"] - t_fault for ops in ops_by_cell.values() for op in ops]
    steps = marks.of(summary)
    start, end = (min(all_t), max(all_t)) if all_t else (-10, 10)
    start = min([start] + [m.at_s - 1 for m in steps])
    if with_sysbench:
        _sysbench_panel(axes[0], run, with_sysbench, last_recovery_s(cells), t_fault)
    if wrk_seconds:
        _wrk_panel(axes[1 if with_sysbench else 0], cells, wrk_seconds, t_fault)
    ax = axes[-1]
    bins = np.arange(np.ceil(start), np.floor(end) + 1, 1.0)      # whole seconds with operations only
    if len(bins) < 2:
        bins = np.array([np.floor(start), np.floor(start) + 1.0])
    grid = _success_grid(cells, ops_by_cell, bins, t_fault, interval_s)
    colours = matplotlib.colormaps["RdYlGn"].copy()
    colours.set_bad("white")
    ax.imshow(grid, aspect="auto", cmap=colours, vmin=0, vmax=1, interpolation="nearest",
              extent=(bins[0], bins[-1], rows - 0.5, -0.5))
    ax.axvline(0, color="#cc0000", linewidth=1.5, label="fault")
    for mark in steps:
        ax.axvline(mark.at_s, **MARK_STYLES[mark.kind], linewidth=2, label=f"{mark.at_s:+.1f} s: {mark.what}")
    observed = summary.observed_s
    for row, c in enumerate(cells):
        p = c.probe
        waiting_since = _waiting_since(c, ops_by_cell[c.name], t_fault)
        if waiting_since is not None and observed is not None and observed > waiting_since:
            ax.barh(row, observed - waiting_since, left=waiting_since, height=0.8, color=WAITING_COLOUR,
                    label="still waiting when the run ended")
        if p.detect_s is not None:
            ax.plot(p.detect_s, row, "kx", markersize=8, label="detect (first error)")
        if p.recover_s is not None:
            ax.plot(p.recover_s, row, "^", color="#1155cc", markersize=7, label="recover (first success after)")
    ax.set_yticks(range(rows), [c.name for c in cells], fontsize=9)
    ax.set_xlabel("seconds after the fault")
    ax.set_title("probe: share of operations that succeeded, per second (green all, red none)")
    ax.set_xlim(bins[0], max(bins[-1], observed or bins[-1]))
    fig.suptitle(f"{summary.scenario}: timeline ({summary.run})")
    fig.tight_layout()
    legend_under(fig, *axes, columns=2)         # a step's words in full: the legend's
    save(fig, path)
    plt.close(fig)


def _success_grid(cells: Sequence[FailoverCell], ops_by_cell: Mapping[str, Sequence[probe_log.Record]],
                  bins: np.ndarray, t_fault: float, interval: float) -> np.ndarray:
    """Per cell and second, the share of operations that succeeded (1.0: all); blank where its
    probe was not running, before the fault while it was still starting, and while it waits."""
    grid = np.full((len(cells), max(len(bins) - 1, 1)), np.nan)
    for row, c in enumerate(cells):
        ops = ops_by_cell[c.name]
        if not ops:
            continue
        counts, _ = np.histogram([op["t1"] - t_fault for op in ops if op["ok"]], bins=bins)
        first, last = min(op["t0"] for op in ops) - t_fault, max(op["t1"] for op in ops) - t_fault
        inside = (bins[:-1] >= np.floor(first)) & (bins[1:] <= np.ceil(last))
        # before the fault a second without a success is a client still starting (a JVM's first
        # answers), not a failure
        starting = (bins[:-1] < 0) & (counts == 0)
        waiting_since = _waiting_since(c, ops, t_fault)      # drawn as its own bar, over a blank row
        waiting = bins[:-1] >= (np.inf if waiting_since is None else waiting_since)
        grid[row, :len(counts)] = np.where(inside & ~starting & ~waiting, counts * interval, np.nan)
    return grid


def _sysbench_panel(ax: Axes, run: RunDir, with_sysbench: Sequence[FailoverCell], last_recovery: float,
                    t_fault: float) -> None:
    """last_recovery: every cell's, not only those with a sysbench (the fault's shading is the run's)."""
    for c in with_sysbench:
        reports = sysbench_log.parse(run.read(run.sysbench_log(c.name)))
        ax.step([r.t - t_fault for r in reports], [r.tps for r in reports], where="pre", label=c.name)
    fault_window(ax, last_recovery)
    ax.set_ylabel("sysbench tps")
    ax.set_title("sysbench transactions per second (1 s report lines)")


def _wrk_panel(ax: Axes, cells: Sequence[FailoverCell], wrk_seconds: Mapping[int, int], t_fault: float) -> None:
    seconds = list(range(min(wrk_seconds), max(wrk_seconds) + 1))
    ax.step([sec + 1 - t_fault for sec in seconds], [wrk_seconds.get(sec, 0) for sec in seconds], where="pre",
            color="#674ea7", label="wrk (keepalive connections)")
    fault_window(ax, last_recovery_s(cells))
    ax.set_ylabel("HTTP responses/s")
    ax.set_title("wrk throughput through the VIP, per second")


WAITING_COLOUR = "#7f3fbf"
MARK_STYLES = {"step": {"color": "black", "linestyle": "--"}, "heal": {"color": "#38761d", "linestyle": "--"},
               "lb": {"color": "#1155cc", "linestyle": ":"}, "promotion": {"color": "#b45f06", "linestyle": "-."}}


def _waiting_since(cell: FailoverCell, ops: Sequence[probe_log.Record], t_fault: float) -> float | None:
    """Seconds after the fault from which the cell's client had no answer until the run ended
    (still waiting on its first hung operation, or on a reconnect after its error), or None."""
    if still_waiting(cell):
        return max(0.0, max((op["t1"] - t_fault for op in ops if op["ok"]), default=0.0))
    p = cell.probe
    if p.detect_s is not None and p.recover_s is None and not p.never_worked:
        return max([p.detect_s] + [op["t1"] - t_fault for op in ops])
    return None


def recovery(summary: RunSummary, path: Path) -> None:
    cells = sorted(summary.cells, key=lambda c: (c.predicted.expected_s is None, c.predicted.expected_s or 0, c.name))
    fig, ax = plt.subplots(figsize=(WIDTH_IN, max(2.5, 0.38 * len(cells) + 1.5)))
    for row, c in enumerate(cells):
        w, p = c.predicted, c.probe
        if w.expected_s is not None and w.earliest_s is not None and w.latest_s is not None:
            low = max(w.earliest_s, 0.05)
            ax.barh(row, max(w.latest_s, low * 1.02) - low, left=low, height=0.6, color="#cfe2f3",
                    edgecolor="#6fa8dc", label="model window" if row == 0 else None)
            ax.plot(max(w.expected_s, 0.05), row, "|", color="#3d85c6", markersize=14,
                    label="model expects" if row == 0 else None)
        else:
            ax.text(0.06, row, "model: no error", va="center", fontsize=9, color="#3d85c6")
        if p.detect_s is not None:
            ax.plot(max(p.detect_s, 0.05), row, "ko", markersize=5, label="measured detect")
        elif w.expected_s is not None and w.earliest_s is not None and summary.observed_s:
            # still waiting when the run stopped watching: hollow, a dotted line on to the window
            ax.plot([summary.observed_s, max(w.earliest_s, 0.05)], [row, row], "k:", linewidth=1)
            ax.plot(summary.observed_s, row, "o", markerfacecolor="none", markeredgecolor="black", markersize=5,
                    label="no error yet when the run stopped")
        if p.recover_s is not None:
            ax.plot(max(p.recover_s, 0.05), row, "^", color="#38761d", markersize=6, label="measured recover")
    ax.set_xscale("log")
    ax.set_xlim(0.05, max(2000, max((c.probe.recover_s or 0) for c in cells) * 2))
    ax.set_yticks(range(len(cells)), [c.name for c in cells], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("seconds after the fault (log scale)")
    ax.set_title(f"{summary.scenario}: when each client noticed and recovered, beside the model\n"
                 "(what each window counts: the table under the chart)", fontsize=10)
    ax.grid(True, axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    legend_under(fig, ax)
    save(fig, path)
    plt.close(fig)


def render(run: RunDir, summary: RunSummary) -> list[str]:
    """Draw every chart the run's files allow, side by side in forked processes (matplotlib
    draws in one thread); returns their paths relative to the run."""
    if not summary.cells:
        return []
    run.charts_dir.mkdir(exist_ok=True)
    scenario = of_run(run)
    if not isinstance(scenario, Scenario):
        raise ValueError(f"{run.path}: a burst run's chart is report/burst_chart.py's")
    for signal in SIGNALS.members():
        if signal.chart:
            signal.chart_module()           # imported here, not in each forked drawer
    jobs: list[tuple[Callable[..., Any], tuple[Any, ...], Path]] = [
        (timeline, (run, scenario.probe.interval_ms / 1000, summary), run.chart("timeline.png")),
        (recovery, (summary,), run.chart("recovery.png")),
        *((signal.draw_chart, (run, scenario, summary), run.chart(signal.chart))
          for signal in SIGNALS.members() if signal.chart)]
    with ProcessPoolExecutor(len(jobs), mp_context=multiprocessing.get_context("fork")) as pool:
        drawn = list(pool.map(_draw, jobs))
    return [run.relative(path) for (_, _, path), done in zip(jobs, drawn) if done is not False]


def _draw(job: tuple[Callable[..., Any], tuple[Any, ...], Path]) -> Any:
    chart, args, path = job
    return chart(*args, path)
