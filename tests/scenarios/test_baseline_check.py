"""`check-baseline` against the committed baseline of this machine's kernel, through the CLI."""
import json
import os
import platform
import subprocess
import sys

import pytest

from harness.measure import baseline
from harness.lab import REPO
from tests.scenarios.conftest import PROJECT

SCENARIO = "matrix-short"


def cli(*args, env):
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    results = tmp_path_factory.mktemp("baseline-results")
    env = {**os.environ, "LAB_PROJECT": PROJECT, "BLACKHOLE_RESULTS": str(results)}
    committed = baseline.find(SCENARIO, platform.release())
    assert committed is not None, "no committed baseline for matrix-short in baselines/"
    result = cli("check-baseline", SCENARIO, env=env)
    run_dir = next(results.glob(f"{SCENARIO}/2*"))
    return result, run_dir, committed, env


def test_this_kernel_matches_its_committed_baseline(checked):
    result, run_dir, committed, _ = checked
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok: 12 cells within tolerance" in result.stdout
    junit = (run_dir / "baseline-check.xml").read_text()
    assert 'tests="12" failures="0"' in junit


def test_a_doctored_baseline_fails_naming_the_cell(checked, tmp_path):
    _, run_dir, committed, env = checked
    doctored = json.loads(committed.read_text())
    cell = doctored["cells"]["r3-rt2"]
    cell["detect_s"] += baseline.tolerance_s(baseline.BaselineCell.read("r3-rt2", cell), doctored["probe_interval_s"]) + 0.5
    path = tmp_path / "doctored.json"
    path.write_text(json.dumps(doctored))
    result = cli("check-baseline", SCENARIO, "--baseline", str(path), "--run-dir", str(run_dir), env=env)
    assert result.returncode == 1
    assert "REGRESSION in 1 cell(s): r3-rt2" in result.stdout
    assert 'name="r3-rt2"><failure' in (run_dir / "baseline-check.xml").read_text()


def test_a_baseline_from_another_kernel_warns(checked, tmp_path):
    _, run_dir, committed, env = checked
    foreign = json.loads(committed.read_text())
    foreign["kernel"] = "5.10.0-99-amd64"
    path = tmp_path / "foreign.json"
    path.write_text(json.dumps(foreign))
    result = cli("check-baseline", SCENARIO, "--baseline", str(path), "--run-dir", str(run_dir), env=env)
    assert "warning: the baseline was taken on kernel 5.10.0-99-amd64" in result.stdout
