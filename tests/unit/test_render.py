"""A run directory renders from its files alone: summary, page, charts, the results index."""
import json

import yaml

from harness import report
from harness.store import RunDir

DEFINITION = {"load": {"probe": {"proto": "mysql", "interval_ms": 100}}, "cells": [{"tcp_retries2": 5}],
              "steps": [{"fault": "ipvs_swap", "old": "db-primary", "new": "db-replica"}]}
T = 1_800_000_000.0


def write_run(tmp_path):
    run = RunDir.create("synthetic", DEFINITION, results=tmp_path)
    ops = [{"t0": T - 1 + i / 10, "t1": T - 1 + i / 10 + 0.01, "ok": True, "server": "db-primary", "conn": 1}
           for i in range(10)]
    ops += [{"t0": T + 0.05, "t1": T + 13.45, "ok": False, "error": "MYSQL_2013", "conn": 1},
            {"t0": T + 13.5, "t1": T + 13.52, "ok": True, "server": "db-replica", "conn": 2}]
    run.write_text(run.probe_log("r5"), "".join(json.dumps(op) + "\n" for op in ops))
    fault = {"t": T, "source": "harness", "event": "fault", "started_t": T, "done_t": T + 0.2, "uncertainty_s": 0.2,
             "name": "ipvs_swap", "params": {"old": "db-primary", "new": "db-replica", "nodest": "drop",
                                             "service": "mysql", "drain_s": 0.0}, "step": 0,
             "effect": {"kind": "blackhole"}}
    run.events_file.write_text(json.dumps(fault) + "\n")
    return run


def test_a_run_renders_from_its_files_alone(tmp_path):
    run = write_run(tmp_path)
    summary = report.render(run)
    [cell] = summary.cells
    assert (cell.probe.detect_s, cell.probe.error) == (13.45, "MYSQL_2013")
    assert cell.probe.within_window, cell.predicted
    assert json.loads(run.summary_json.read_text()) == json.loads(json.dumps(summary.written))
    assert "r5" in run.summary_md.read_text() and "r5" in run.page.read_text()
    assert {p.name for p in run.charts_dir.glob("*.png")} == {"timeline.png", "recovery.png"}
    index = (tmp_path / "index.html").read_text()
    assert run.name in index and (tmp_path / "latest").is_symlink()
    assert yaml.safe_load(run.scenario_file.read_text())["id"] == "synthetic"


def test_a_run_stopped_before_its_fault_still_gets_a_page(tmp_path):
    run = RunDir.create("synthetic", DEFINITION, results=tmp_path)
    summary = report.render(run)
    assert summary.cells == () and "no fault step ran" in (summary.note or "")
    assert run.page.exists()
