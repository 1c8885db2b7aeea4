"""make bench-matrix: a short knob matrix (no cell over ~15 s) from one failover.

Prints and stores: cells measured, wall time, wall time / slowest cell's prediction, the median
|measured - predicted| detect time, and where the wall time went (measure/run_phases.py).
"""
import io
import os
import statistics
import time

from . import store, wall_breakdown
from .. import scenario
from ..pipeline import run_and_report
from .up import PROJECT

SCENARIO = "matrix-short"


def main() -> None:
    # NAMESPACES=container|netns measures it with the cells' namespaces as containers or netns
    overrides = {"NAMESPACES": os.environ["NAMESPACES"]} if os.environ.get("NAMESPACES") else {}
    parsed, raw = scenario.load(SCENARIO, overrides)
    if not isinstance(parsed, scenario.Scenario):
        raise ValueError(f"{SCENARIO}: a failover scenario is measured here, not a burst")
    print(f"bench-matrix: {len(parsed.cells)} cells, one failover ...", flush=True)
    started = time.time()             # the host's clock: the lab's, when it runs on this host
    run = run_and_report(parsed, raw, project=PROJECT, out=io.StringIO())
    ended = time.time()
    wall = ended - started
    summary = run.summary()
    breakdown = wall_breakdown(run.events(), summary, started, ended)
    measured = [c for c in summary["cells"] if c["probe"]["detect_s"] is not None]
    errors = [abs(c["probe"]["detect_s"] - c["predicted"]["expected_s"]) for c in measured
              if c["predicted"]["expected_s"] is not None]
    slowest = max(c["predicted"]["expected_s"] or 0 for c in summary["cells"])
    figures = {
        "scenario": SCENARIO, "cell_namespaces": parsed.cell_namespaces, "run": str(run.path),
        "cells": len(summary["cells"]), "cells_measured": len(measured),
        "cells_within_window": sum(c["probe"]["within_window"] is True for c in summary["cells"]),
        "wall_s": round(wall, 1), "slowest_predicted_s": round(slowest, 2),
        "wall_over_slowest": round(wall / slowest, 2),
        "median_abs_error_s": round(statistics.median(errors), 3) if errors else None,
        "max_abs_error_s": round(max(errors), 3) if errors else None,
        "breakdown_s": dict(breakdown),
    }
    path = store("matrix", figures)
    print(f"cells measured        {figures['cells_measured']}/{figures['cells']} "
          f"({figures['cells_within_window']} within the model window)")
    print(f"wall time             {figures['wall_s']} s (lab up and down included)")
    print(f"wall / slowest cell   {figures['wall_over_slowest']} (slowest predicted {figures['slowest_predicted_s']} s)")
    print(f"|measured-predicted|  median {figures['median_abs_error_s']} s, max {figures['max_abs_error_s']} s")
    print("where the wall time went:")
    for phase, seconds in breakdown:
        print(f"  {seconds:6.2f} s  {phase}")
    print(f"stored: {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main()
