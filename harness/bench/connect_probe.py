"""make bench-connect-probe [ROUNDS=2]: what the connection-setup prober costs. The short knob
matrix (matrix-short) from one failover, alternately without and with the prober at 100
connects/s through the VIP, ROUNDS times each. Per run: the machine's CPU busy share while the
lab ran, the prober's own CPU time, the model error (|measured - predicted| detect, median and
max) and the cells within the model window; then the two sides' medians side by side.
"""
import copy
import io
import os
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from . import store
from .. import scenario as scenario_files
from ..signals.connect import ConnectLatency, connect_log
from ..pipeline import run_and_report
from .scale import MachineLoad
from .up import PROJECT

SCENARIO = "matrix-short"
RATE_PER_S = 100


def one_run(with_prober: bool) -> dict[str, Any]:
    overrides = {"CONNECT_PROBE": str(RATE_PER_S if with_prober else 0)}
    parsed, raw = scenario_files.load(SCENARIO, overrides)
    with MachineLoad() as load:
        started = time.time()
        run = run_and_report(parsed, copy.deepcopy(raw), project=PROJECT, out=io.StringIO())
        wall = time.time() - started
    summary = run.summary()
    errors = [abs(c["probe"]["detect_s"] - c["predicted"]["expected_s"]) for c in summary["cells"]
              if c["probe"]["detect_s"] is not None and c["predicted"]["expected_s"] is not None]
    row = {"prober": with_prober, "run": str(run.path), "state": summary["status"]["state"], "wall_s": round(wall, 1),
           "cpu_busy_mean": round(statistics.mean(load.cpu), 3) if load.cpu else None,
           "cells": len(summary["cells"]),
           "cells_within_window": sum(c["probe"]["within_window"] is True for c in summary["cells"]),
           "median_abs_error_s": round(statistics.median(errors), 3) if errors else None,
           "max_abs_error_s": round(max(errors), 3) if errors else None}
    if with_prober:
        _, totals = connect_log.parse(run.read(ConnectLatency.file(run, "log")))
        before = summary["signals"]["connect"]["phases"]["before"]
        row.update(prober_cpu_s=(totals or {}).get("cpu_s"), connects_sent=(totals or {}).get("sent"),
                   connect_p50_ms_before=before["p50"], connect_p99_ms_before=before["p99"])
    return row


def side(rows: Sequence[Mapping[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return round(statistics.median(values), 3) if values else None


def main() -> None:
    rounds = int(os.environ.get("ROUNDS", "2"))
    rows = []
    for n in range(rounds):
        for with_prober in (False, True):
            print(f"bench-connect-probe: round {n + 1}/{rounds}, {'with' if with_prober else 'without'} the prober ...",
                  flush=True)
            rows.append(one_run(with_prober))
            print(f"  {rows[-1]}", flush=True)
    off, on = [r for r in rows if not r["prober"]], [r for r in rows if r["prober"]]
    keys = ("cpu_busy_mean", "median_abs_error_s", "max_abs_error_s", "cells_within_window", "wall_s")
    figures: dict[str, Any] = {"scenario": SCENARIO, "rate_per_s": RATE_PER_S, "rounds": rounds, "runs": rows,
               "without": {k: side(off, k) for k in keys},
               "with": {**{k: side(on, k) for k in keys}, "prober_cpu_s": side(on, "prober_cpu_s")}}
    path = store("connect-probe", figures)
    print(f"{'':24}{'without':>10}{'with':>10}")
    for key in keys:
        print(f"{key:24}{str(figures['without'][key]):>10}{str(figures['with'][key]):>10}")
    print(f"prober's own CPU time   {figures['with']['prober_cpu_s']} s per run")
    print(f"stored: {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main()
