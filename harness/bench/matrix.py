"""make bench-matrix: a short knob matrix (no cell over ~15 s) from one failover.

Prints and stores: cells measured, wall time, wall time / slowest cell's prediction,
and the median |measured - predicted| detect time.
"""
import io
import json
import statistics
import time

from . import store
from .. import scenario
from ..runner import Run
from .up import ENV, PROJECT

SCENARIO = "matrix-short"


def main():
    raw = scenario.load_raw(SCENARIO)
    parsed = scenario.parse(raw, f"scenarios/{SCENARIO}.yaml", SCENARIO)
    print(f"bench-matrix: {len(parsed.cells)} cells, one failover ...", flush=True)
    started = time.monotonic()
    run_dir = Run(parsed, raw, project=PROJECT, lab_env=ENV, out=io.StringIO()).execute()
    wall = time.monotonic() - started
    summary = json.loads((run_dir / "summary.json").read_text())
    measured = [c for c in summary["cells"] if c["probe"]["detect_s"] is not None]
    errors = [abs(c["probe"]["detect_s"] - c["predicted"]["expected_s"]) for c in measured
              if c["predicted"]["expected_s"] is not None]
    slowest = max(c["predicted"]["expected_s"] or 0 for c in summary["cells"])
    figures = {
        "scenario": SCENARIO, "run": str(run_dir), "cells": len(summary["cells"]), "cells_measured": len(measured),
        "cells_within_window": sum(c["probe"]["within_window"] for c in summary["cells"]),
        "wall_s": round(wall, 1), "slowest_predicted_s": round(slowest, 2),
        "wall_over_slowest": round(wall / slowest, 2),
        "median_abs_error_s": round(statistics.median(errors), 3) if errors else None,
        "max_abs_error_s": round(max(errors), 3) if errors else None,
    }
    path = store("matrix", figures)
    print(f"cells measured        {figures['cells_measured']}/{figures['cells']} "
          f"({figures['cells_within_window']} within the model window)")
    print(f"wall time             {figures['wall_s']} s (lab up and down included)")
    print(f"wall / slowest cell   {figures['wall_over_slowest']} (slowest predicted {figures['slowest_predicted_s']} s)")
    print(f"|measured-predicted|  median {figures['median_abs_error_s']} s, max {figures['max_abs_error_s']} s")
    print(f"stored: {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main()
