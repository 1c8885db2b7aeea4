"""make bench-namespaces [SIZES="12 25 50 100"]: what a network namespace per cell costs, as a
container each or as namespaces in one client container (scenario key `namespaces:`).

A cell with sysctls of its own needs a network namespace of its own. Here every cell has one:
tcp_retries2 2, 3 or 5 (what the cells measure) and a tcp_keepalive_time of its own (a sysctl
that leaves a connection with a request outstanding alone, so only the namespaces' number grows).
At each size the same failover runs both ways, one after the other, measured as bench-scale
measures a grid: wall time, lab up, the clients until each answered, the lab's cleanup, memory
and CPU of the machine, the model error. A chart goes beside the JSON in results/bench/.
"""
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import label_axes, save_chart, store  # noqa: E402
from .scale import CEILING_P95_S, measure  # noqa: E402
from ..store import bench_dir  # noqa: E402
from ..topology import CELL_NAMESPACES  # noqa: E402

SIZES = (12, 25, 50, 100)
RETRIES2 = (2, 3, 5)
CLEANUP = "cleanup: taking the lab down | merging the timeline"


def grid(size: int) -> list[dict[str, Any]]:
    return [{"name": f"c{n + 1:03d}-r{RETRIES2[n % len(RETRIES2)]}", "tcp_retries2": RETRIES2[n % len(RETRIES2)],
             "tcp_keepalive_time": 7200 + n} for n in range(size)]


def scenario_for(size: int, cell_namespaces: str) -> dict[str, Any]:
    return {"description": f"bench-namespaces: {size} cells, a network namespace each ({cell_namespaces})",
            "namespaces": cell_namespaces,
            "load": {"probe": {"proto": "mysql", "interval_ms": 100}}, "cells": grid(size),
            "warmup_s": 1, "observe_s": 30,
            "steps": [{"fault": "ipvs_swap", "service": "mysql", "old": "db-primary", "new": "db-replica",
                       "nodest": "drop"},
                      {"fault": "promote_replica", "target": "db-replica"}]}


def phase(row: Mapping[str, Any], name: str) -> float | None:
    return row["phases_s"].get(name)


def chart(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    fig, (times, memory) = plt.subplots(1, 2, figsize=(12.8, 4.8), dpi=100)
    for mode, marker in zip(CELL_NAMESPACES, ("o", "s")):
        ok = [r for r in rows if r.get("cell_namespaces") == mode and "failed" not in r]
        sizes = [r["cells"] for r in ok]
        times.plot(sizes, [r["wall_s"] for r in ok], marker=marker, label=f"{mode}: wall")
        times.plot(sizes, [phase(r, "lab up") for r in ok], marker=marker, linestyle="--", label=f"{mode}: lab up")
        times.plot(sizes, [phase(r, "clients start until each answered") for r in ok], marker=marker,
                   linestyle=":", label=f"{mode}: clients until each answered")
        memory.plot(sizes, [r["memory_mb_over_idle"] for r in ok], marker=marker, label=mode)
    label_axes(times, "cells, a network namespace each", "seconds", legend_size=8)
    label_axes(memory, "cells, a network namespace each", "memory in use over idle (MB)")
    save_chart(fig, "bench-namespaces: a container per namespace, or namespaces in one container", path)
    plt.close(fig)


def main() -> None:
    sizes = [int(s) for s in os.environ.get("SIZES", " ".join(map(str, SIZES))).split()]
    rows = []
    for size in sizes:
        for mode in CELL_NAMESPACES:
            print(f"bench-namespaces: {size} cells, {mode} ...", flush=True)
            # each run its own Compose project: a network Docker failed to remove cannot trip the next
            row = measure(scenario_for(size, mode), f"namespaces-{size}-{mode}", project=None)
            row["cell_namespaces"] = mode
            rows.append(row)
            if "failed" in row:
                print(f"  FAILED: {row['failed']} ({row['run']})", flush=True)
                continue
            print(f"  {size:4d} cells {mode:9s}: wall {row['wall_s']} s, lab up {phase(row, 'lab up')} s, "
                  f"clients answered after {phase(row, 'clients start until each answered')} s, "
                  f"down {phase(row, CLEANUP)} s, +{row['memory_mb_over_idle']} MB, CPU {row['cpu_busy_mean']:.0%}, "
                  f"{row['containers']} containers, {row['cells_within_window']}/{size} in window, error median "
                  f"{row['error_median_s']} / p95 {row['error_p95_s']} s", flush=True)
    path = store("namespaces", {"sizes": sizes, "modes": list(CELL_NAMESPACES),
                                "error_rule": f"p95 <= {CEILING_P95_S} s", "rows": rows})
    chart(rows, bench_dir() / (path.stem + ".png"))
    print(f"stored: {path.relative_to(path.parents[2])} and its .png")


if __name__ == "__main__":
    main()
