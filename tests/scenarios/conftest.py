"""Scenario runs against the real lab: short variants, each on a fresh lab, results in a temp dir."""
import io
import json

import pytest

from harness import catalog
from harness.lab import labelled_leftovers
from harness.runner import Run
from harness import scenario

PROJECT = "blackhole-lab-scn"
LAB_ENV = {"LAB_FRONT_PREFIX": "10.213.131", "LAB_BACK_PREFIX": "10.213.132"}


@pytest.fixture
def run_scenario(tmp_path):
    """run_scenario(id, **raw overrides) -> (summary dict, run dir); the lab must be gone after."""
    def run(scenario_id, **overrides):
        kind, parsed, raw = catalog.load(scenario_id, overrides)
        out = io.StringIO()
        run_dir = catalog.runner(kind, parsed, raw, project=PROJECT, lab_env=LAB_ENV, results=tmp_path,
                                 out=out).execute()
        print(out.getvalue())
        assert labelled_leftovers() == {"containers": [], "networks": [], "volumes": []}
        return json.loads((run_dir / "summary.json").read_text()), run_dir
    return run


def cells(summary):
    return {c["cell"]: c for c in summary["cells"]}


@pytest.fixture(scope="package")
def matrix_run(tmp_path_factory):
    """The lvs-switchover-matrix run, shared by the tests that read it: (summary, run dir, wall s)."""
    import time
    started = time.monotonic()
    tmp = tmp_path_factory.mktemp("matrix")
    raw = scenario.load_raw("lvs-switchover-matrix")
    parsed = scenario.parse(raw, "scenarios/lvs-switchover-matrix.yaml", "lvs-switchover-matrix")
    out = io.StringIO()
    run_dir = Run(parsed, raw, project=PROJECT, lab_env=LAB_ENV, results=tmp, out=out).execute()
    print(out.getvalue())
    assert labelled_leftovers() == {"containers": [], "networks": [], "volumes": []}
    return json.loads((run_dir / "summary.json").read_text()), run_dir, time.monotonic() - started
