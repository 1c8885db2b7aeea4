"""make bench-scale [SIZES="12 25 50 100 200"]: the same failover measuring ever bigger grids.

Per size: wall time and wall / slowest cell, the model error (median, p95, max of
|measured - predicted| first-error time), the probe interval the clients achieved before the
fault (p50 / p99 gap between operation starts, asked for 100 ms), the machine's CPU busy share
and memory in use while the lab ran, the containers the cells took, and where the wall time went
(the run's own events). The ceiling: the largest grid whose p95 error stays <= 0.1 s. A chart of
the curve goes beside the JSON in results/bench/.
"""
import copy
import io
import itertools
import os
import statistics
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Self

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import label_axes, save_chart, store, wall_breakdown  # noqa: E402
from .. import scenario as scenario_files  # noqa: E402
from ..measure import probe_log  # noqa: E402
from ..pipeline import run_and_report  # noqa: E402
from ..lab import LabPlace  # noqa: E402
from ..scenario.model import Cell, Scenario  # noqa: E402
from ..store import RunDir, bench_dir  # noqa: E402

SIZES = (12, 25, 50, 100, 200)
CEILING_P95_S = 0.1
INTERVAL_MS = 100
# Per-socket and per-application knobs vary within a container; tcp_retries2 needs a namespace each.
RETRIES2 = (3, 5)
USER_TIMEOUT_MS = (0, 2000, 3000, 4000, 5000)
READ_TIMEOUT_S = (0, 1, 2, 3, 4)


def grid(size: int) -> list[dict[str, Any]]:
    """`size` cells, every combination once before any repeats, in an order that mixes the knobs.
    (Names carry the cell's number: a repeated combination is a cell of its own.)"""
    combinations = list(itertools.product(RETRIES2, USER_TIMEOUT_MS, READ_TIMEOUT_S))
    cells = []
    for n in range(size):
        # a stride coprime to the count walks every combination once, knobs mixed from the first cells on
        retries2, user_timeout, read_timeout = combinations[(n * 17) % len(combinations)]
        cells.append({"name": f"c{n + 1:03d}-r{retries2}-ut{user_timeout}-rt{read_timeout}",
                      "tcp_retries2": retries2, "tcp_user_timeout_ms": user_timeout, "read_timeout_s": read_timeout})
    return cells


def scenario_for(size: int) -> dict[str, Any]:
    return {"description": f"bench-scale: {size} cells from one failover",
            "load": {"probe": {"proto": "mysql", "interval_ms": INTERVAL_MS}}, "cells": grid(size),
            "warmup_s": 8, "observe_s": 30,
            "steps": [{"fault": "ipvs_swap", "service": "mysql", "old": "db-primary", "new": "db-replica",
                       "nodest": "drop"},
                      {"fault": "promote_replica", "target": "db-replica"}]}


class MachineLoad:
    """CPU busy share and memory in use of the whole machine, sampled once a second in a thread."""

    def __init__(self) -> None:
        self.cpu: list[float] = []
        self.memory_mb: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    @staticmethod
    def _cpu_times() -> tuple[int, int]:
        fields = [int(v) for v in open("/proc/stat").readline().split()[1:]]
        return sum(fields), fields[3] + fields[4]             # total, idle + iowait

    @staticmethod
    def _memory_mb() -> float:
        info = dict(line.split(":", 1) for line in open("/proc/meminfo"))
        return (int(info["MemTotal"].split()[0]) - int(info["MemAvailable"].split()[0])) / 1024

    def _sample(self) -> None:
        last = self._cpu_times()
        while not self._stop.wait(1.0):
            now = self._cpu_times()
            total, idle = now[0] - last[0], now[1] - last[1]
            last = now
            if total:
                self.cpu.append(1 - idle / total)
            self.memory_mb.append(self._memory_mb())

    def __enter__(self) -> Self:
        self.memory_before_mb = self._memory_mb()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which `share` of the values lie (of at least one value)."""
    if not values:
        raise ValueError("a percentile of no values")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def probe_gaps_s(run: RunDir, cells: Sequence[Cell], t_fault: float) -> list[float]:
    """Gaps between consecutive operation starts of every cell's probe before the fault."""
    gaps = []
    for cell in cells:
        starts = [op["t0"] for op in probe_log.parse(run.read(run.probe_log(cell.name))) if op["t0"] < t_fault]
        gaps += [b - a for a, b in zip(starts, starts[1:])]
    return gaps


def measure(raw: dict[str, Any], scenario_id: str, project: str | None, engine: LabPlace = None) -> dict[str, Any]:
    """One failover of the raw definition, measured: the figures of a row of bench-scale (and of
    bench-namespaces and bench-cluster-scale, which measure their grids the same way); engine:
    where its lab runs (None: this host)."""
    parsed = scenario_files.parse_definition(copy.deepcopy(raw), "bench", scenario_id)
    if not isinstance(parsed, Scenario):
        raise ValueError(f"{scenario_id}: a failover scenario is measured here, not a burst")
    size = len(parsed.cells)
    with MachineLoad() as load:
        started = time.time()
        run = run_and_report(parsed, raw, project=project, out=io.StringIO(), engine=engine)
        ended = time.time()
    summary = run.summary()
    if summary["status"]["state"] != "completed" or not summary.get("fault"):
        return {"cells": size, "failed": summary["status"].get("reason") or summary["status"]["state"],
                "run": str(run.path)}
    cells = summary["cells"]
    errors = [abs(c["probe"]["detect_s"] - c["predicted"]["expected_s"]) for c in cells
              if c["probe"]["detect_s"] is not None and c["predicted"]["expected_s"] is not None]
    slowest = max(c["predicted"]["expected_s"] or 0 for c in cells)
    gaps = probe_gaps_s(run, parsed.cells, summary["fault"]["t"])
    return {
        "cells": size, "run": str(run.path), "cells_measured": len(errors),
        # how long the fault took to apply: it landed somewhere in there, every cell's error includes it
        "fault_uncertainty_s": summary["fault"]["uncertainty_s"],
        "cells_within_window": sum(c["probe"]["within_window"] is True for c in cells),
        "namespaces": len({c.namespace for c in parsed.cells}),
        "cell_namespaces": parsed.cell_namespaces,
        "containers": len(run.services_logged()),
        "wall_s": round(ended - started, 1), "wall_over_slowest": round((ended - started) / slowest, 2),
        "error_median_s": round(statistics.median(errors), 3) if errors else None,
        "error_p95_s": round(percentile(errors, 0.95), 3) if errors else None,
        "error_max_s": round(max(errors), 3) if errors else None,
        "probe_gap_p50_s": round(percentile(gaps, 0.5), 3) if gaps else None,
        "probe_gap_p99_s": round(percentile(gaps, 0.99), 3) if gaps else None,
        "cpu_busy_mean": round(statistics.mean(load.cpu), 2) if load.cpu else None,
        "cpu_busy_max": round(max(load.cpu), 2) if load.cpu else None,
        "memory_mb_over_idle": round(max(load.memory_mb) - load.memory_before_mb) if load.memory_mb else None,
        "phases_s": dict(wall_breakdown(run.events(), summary, started, ended)),
    }


def chart(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    ok = [r for r in rows if "failed" not in r]
    fig, (errors, costs) = plt.subplots(1, 2, figsize=(12.8, 4.8), dpi=100)
    sizes = [r["cells"] for r in ok]
    for key, marker, label in (("error_median_s", "o", "median"), ("error_p95_s", "s", "p95"),
                               ("error_max_s", "^", "max")):
        errors.plot(sizes, [r[key] for r in ok], marker=marker, label=label)
    errors.axhline(CEILING_P95_S, color="grey", linestyle="--", label=f"ceiling: p95 {CEILING_P95_S} s")
    errors.set_xscale("log")
    label_axes(errors, "cells in one failover", "|measured − predicted| first error (s)")
    costs.plot(sizes, [r["wall_over_slowest"] for r in ok], marker="o", label="wall / slowest cell")
    costs.plot(sizes, [r["probe_gap_p99_s"] * 10 for r in ok], marker="s", label="probe gap p99 (×10 s)")
    costs.plot(sizes, [r["cpu_busy_mean"] * 10 for r in ok], marker="^", label="CPU busy mean (×10)")
    costs.set_xscale("log")
    label_axes(costs, "cells in one failover")
    save_chart(fig, "bench-scale: how big a grid one 2-core machine measures", path)
    plt.close(fig)


def main() -> None:
    from .up import PROJECT
    sizes = [int(s) for s in os.environ.get("SIZES", " ".join(map(str, SIZES))).split()]
    rows = []
    for size in sizes:
        print(f"bench-scale: {size} cells ...", flush=True)
        row = measure(scenario_for(size), f"scale-{size}", PROJECT)
        rows.append(row)
        if "failed" in row:
            print(f"bench-scale: {size} cells FAILED: {row['failed']} ({row['run']})", flush=True)
            break
        print(f"  {size:4d} cells: wall {row['wall_s']} s ({row['wall_over_slowest']}× the slowest), error median "
              f"{row['error_median_s']} / p95 {row['error_p95_s']} / max {row['error_max_s']} s, probe gap p50 "
              f"{row['probe_gap_p50_s']} / p99 {row['probe_gap_p99_s']} s, CPU {row['cpu_busy_mean']:.0%} "
              f"(max {row['cpu_busy_max']:.0%}), +{row['memory_mb_over_idle']} MB, fault applied in "
              f"{row['fault_uncertainty_s']} s; {row['phases_s']}", flush=True)
    fine = [r["cells"] for r in rows if "failed" not in r and r["error_p95_s"] is not None
            and r["error_p95_s"] <= CEILING_P95_S]
    ceiling = max(fine) if fine else None
    path = store("scale", {"sizes": sizes, "ceiling_cells": ceiling, "ceiling_rule": f"p95 <= {CEILING_P95_S} s",
                           "rows": rows})
    chart(rows, bench_dir() / (path.stem + ".png"))
    print(f"ceiling: {ceiling} cells (largest grid with p95 |measured - predicted| <= {CEILING_P95_S} s)")
    print(f"stored: {path.relative_to(path.parents[2])} and its .png")


if __name__ == "__main__":
    main()
