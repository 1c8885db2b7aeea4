"""Baselines compare cell by cell, each within its own model-derived tolerance."""
import copy
import json

import pytest

from harness.measure import baseline, kernel_model
from harness.measure.summary_record import read

SUMMARY = {
    "scenario": "matrix-short", "run": "20261122T000000Z-abc", "kernel": "6.18.44-fc-v595",
    "cells": [
        {"cell": "r3", "knobs": {"tcp_retries2": 3}, "probe": {"detect_s": 6.7, "recover_s": 6.71, "error": "MYSQL_2013"},
         "predicted": {"expected_s": 6.76, "earliest_s": 6.53, "latest_s": 7.0, "basis": "tcp_retries2=3"}},
        {"cell": "r3-rt2", "knobs": {"tcp_retries2": 3}, "probe": {"detect_s": 2.0, "recover_s": 2.01, "error": "MYSQL_2013"},
         "predicted": {"expected_s": 2.0, "earliest_s": 2.0, "latest_s": 2.1, "basis": "read timeout"}},
        {"cell": "idle", "knobs": {"tcp_retries2": 15}, "probe": {"detect_s": None, "recover_s": None, "error": None},
         "predicted": {"expected_s": None, "earliest_s": None, "latest_s": None, "basis": "never"}},
    ],
}
ENV = {"datapath": "nftables", "versions": {"sysbench": "1.0.20"}}


def make():
    return baseline.from_summary(read(SUMMARY), ENV, interval_s=0.1)


def shifted(summary, seconds):
    """Another run: every cell that errored did so `seconds` later."""
    other = copy.deepcopy(summary)
    for cell in other["cells"]:
        if cell["probe"]["detect_s"] is not None:
            cell["probe"]["detect_s"] += seconds
    return read(other)


def test_a_later_run_inside_every_tolerance_passes_and_outside_the_narrowest_fails():
    reference = make()
    narrowest = min(baseline.tolerance_s(c, 0.1) for c in baseline.baseline_cells(reference).values() if c.detect_s is not None)
    inside = baseline.compare(reference, shifted(SUMMARY, narrowest * 0.9))
    assert [r.verdict for r in inside] == ["ok", "ok", "ok"]
    assert 'failures="0"' in baseline.junit_xml(inside, "matrix-short")
    outside = {r.cell: r.verdict for r in baseline.compare(reference, shifted(SUMMARY, narrowest * 1.1))}
    assert outside["r3-rt2"] == "REGRESSION" and outside["idle"] == "ok"
    assert baseline.kernel_warning(reference, read(SUMMARY)) is None


def test_a_cell_shifted_outside_its_tolerance_fails_and_is_named():
    doctored = make()
    tolerance = baseline.tolerance_s(baseline.baseline_cells(doctored)["r3-rt2"], 0.1)
    doctored["cells"]["r3-rt2"]["detect_s"] += tolerance + 0.05
    rows = {r.cell: r for r in baseline.compare(doctored, read(SUMMARY))}
    assert rows["r3-rt2"].verdict == "REGRESSION" and rows["r3"].verdict == "ok"
    xml = baseline.junit_xml(list(rows.values()), "matrix-short")
    assert 'failures="1"' in xml and 'name="r3-rt2"><failure' in xml
    assert "r3-rt2" in baseline.table(list(rows.values())) and "REGRESSION" in baseline.table(list(rows.values()))


def test_tolerance_comes_from_each_cells_model_window():
    cells = baseline.baseline_cells(make())
    wide, narrow = baseline.tolerance_s(cells["r3"], 0.1), baseline.tolerance_s(cells["r3-rt2"], 0.1)
    assert wide > narrow >= baseline.MIN_TOLERANCE_S
    shifted = copy.deepcopy(SUMMARY)
    shifted["cells"][0]["probe"]["detect_s"] += wide * 0.9          # inside r3's wider tolerance
    assert [r.verdict for r in baseline.compare(make(), read(shifted))][0] == "ok"


def test_a_borderline_cell_may_take_either_firing_its_model_window_holds():
    """tcp_retries2=3 at RTO 208 ms: docs/facts/kernel.md's earlier firing (~3.5 s) or the budget's (~6.7 s)."""
    early = copy.deepcopy(SUMMARY)
    early["cells"][0]["probe"]["detect_s"] = 3.6
    early["cells"][0]["predicted"] = {"expected_s": 6.76, "earliest_s": 3.3, "latest_s": 7.2, "basis": "either"}
    rows = {r.cell: r for r in baseline.compare(make(), read(early))}
    assert not rows["r3"].failed and rows["r3"].verdict == baseline.WITHIN_WINDOW
    early["cells"][0]["predicted"] = SUMMARY["cells"][0]["predicted"]     # a window without the earlier firing
    assert {r.cell: r.verdict for r in baseline.compare(make(), read(early))}["r3"] == "REGRESSION"
    early["cells"][0]["probe"]["detect_s"] = 3.0                         # before even the wide window opens
    early["cells"][0]["predicted"] = {"expected_s": 6.76, "earliest_s": 3.3, "latest_s": 7.2, "basis": "either"}
    assert {r.cell: r.verdict for r in baseline.compare(make(), read(early))}["r3"] == "REGRESSION"


def test_a_cell_that_starts_erroring_is_a_regression():
    changed = copy.deepcopy(SUMMARY)
    changed["cells"][2]["probe"]["detect_s"] = 3.0
    assert {r.cell: r.verdict for r in baseline.compare(make(), read(changed))}["idle"] == "REGRESSION"


def test_missing_and_new_cells_fail():
    fewer = copy.deepcopy(SUMMARY)
    fewer["cells"] = fewer["cells"][:2] + [{**fewer["cells"][2], "cell": "other"}]
    verdicts = {r.cell: r.verdict for r in baseline.compare(make(), read(fewer))}
    assert verdicts["idle"] == "MISSING" and verdicts["other"] == "NEW"


def test_a_baseline_from_another_kernel_warns():
    other = make()
    other["kernel"] = "6.1.0-28-amd64"
    warning = baseline.kernel_warning(other, read(SUMMARY))
    assert "6.1.0-28-amd64" in warning and "6.18.44-fc-v595" in warning


def _r5(detect_s, rto0_s, basis_extra=""):
    """A tcp_retries2=5 cell as the harness writes it, its model at the base RTO ss measured."""
    kernel = kernel_model.for_knobs(5, 0, rto0_s=rto0_s)
    basis = f"tcp_retries2=5 budget 12.6 s{basis_extra}, base RTO {rto0_s * 1000:.0f} ms (measured)"
    return {"cell": "r5", "knobs": {"tcp_retries2": 5}, "probe": {"detect_s": detect_s, "recover_s": detect_s, "error": "MYSQL_2013"},
            "predicted": {"expected_s": kernel.detect_s + 0.05, "earliest_s": kernel.earliest_s,
                          "latest_s": kernel.latest_s + 0.12, "basis": basis, "base_rto_s": rto0_s}}


def test_what_a_longer_measured_rto_explains_is_taken_off_the_delta():
    """A busy make test: r5 14.141 s at a base RTO of 212 ms against a baseline of 13.387 s taken
    at 204 ms, +0.754 s, past its ±0.583 s; the ladder (63 base RTOs) explains +0.512 s of it."""
    reference = baseline.from_summary(read({**SUMMARY, "cells": [_r5(13.387, 0.204)]}), ENV, interval_s=0.1)
    busy = read({**SUMMARY, "cells": [_r5(14.141, 0.212)]})
    [row] = baseline.compare(reference, busy)
    assert row.verdict == "ok" and row.delta_s > row.tolerance_s
    assert row.rto_shift_s == pytest.approx(63 * 0.008, abs=0.01)
    assert "+0.512" in baseline.table([row])
    # beyond what the RTO explains, by more than the tolerance: still a regression
    [late] = baseline.compare(reference, read({**SUMMARY, "cells": [_r5(13.387 + row.rto_shift_s + row.tolerance_s + 0.05, 0.212)]}))
    assert late.verdict == "REGRESSION"
    # a model that differs in more than the measured RTO explains nothing
    [other] = baseline.compare(reference, read({**SUMMARY, "cells": [_r5(14.141, 0.212, ", RTO capped at 1 s")]}))
    assert other.rto_shift_s == 0.0 and other.verdict == "REGRESSION"


def test_a_cell_the_run_could_not_decide_is_neither_ok_nor_a_regression():
    """No error yet because the run was stopped (its verdict unknown): check-baseline says so, with
    why, and does not call it a regression; the same cell with its run complete and no error is one."""
    why = "no error yet when the run interrupted while observing"
    stopped = copy.deepcopy(SUMMARY)
    stopped["cells"][0]["probe"].update(detect_s=None, recover_s=None,
                                        verdict={"value": "unknown", "why": why, "evidence": []})
    rows = {r.cell: r for r in baseline.compare(make(), read(stopped))}
    assert rows["r3"].verdict == f"UNKNOWN: {why}" and rows["r3"].failed
    stopped["cells"][0]["probe"]["verdict"] = {"value": "invalid", "why": "no error by the run's end", "evidence": []}
    assert {r.cell: r.verdict for r in baseline.compare(make(), read(stopped))}["r3"] == "REGRESSION"


def test_check_says_a_regression_and_an_undecided_cell_apart(tmp_path):
    from harness.store import RunDir
    why = "no error in the 5.0 s the run watched; the model's window opens at 6.53 s"
    now = copy.deepcopy(SUMMARY)
    now["cells"][0]["probe"].update(detect_s=None, recover_s=None, verdict={"value": "unknown", "why": why, "evidence": []})
    now["cells"][1]["probe"]["detect_s"] = 5.0
    (tmp_path / "summary.json").write_text(json.dumps(now))
    reference = tmp_path / "baseline.json"
    reference.write_text(json.dumps(make()))
    said = []
    failed, undecided = baseline.check(reference, RunDir(tmp_path), said.append)
    assert (failed, undecided) == (["r3-rt2"], ["r3"])
    assert "REGRESSION in 1 cell(s): r3-rt2" in said and any(line.startswith("NOT DECIDED in 1 cell(s): r3") for line in said)
