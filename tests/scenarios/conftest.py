"""Scenario runs against the real lab: short variants, each on a fresh lab, results in a temp dir."""
import io
import os

import pytest

from harness import scenario
from harness.lab import labelled_leftovers
from harness.pipeline import run_and_report
from tests.clock_steps import once_more_if_the_clock_was_set
from tests.kernel_facts import assert_error_within, assert_within

PROJECT = f"blackhole-test-scn-{os.getpid()}"      # for tests that name one (CLI runs)
NOTHING = {"containers": [], "networks": [], "volumes": []}


def run_scenario_once(parsed, raw, results, **options):
    out = io.StringIO()
    try:
        return run_and_report(parsed, raw, results=results, out=out, **options)
    finally:
        print(out.getvalue())


def assert_nothing_left(run):
    """Nothing of the run's own lab is left (other people's labs are not this test's business)."""
    project = run.lab_project()
    assert project is None or labelled_leftovers(project=project) == NOTHING, f"{project} left things behind"


def run_once(tmp_path_factory, scenario_id, overrides=None):
    """A scenario run for a module's tests to share (a module-scoped fixture's): its RunDir."""
    parsed, raw = scenario.load(scenario_id, overrides)
    results = tmp_path_factory.mktemp(scenario_id)
    run = once_more_if_the_clock_was_set(lambda: run_scenario_once(parsed, raw, results))
    assert_nothing_left(run)
    return run


@pytest.fixture
def run_scenario(tmp_path):
    """run_scenario(id, **raw overrides) -> (summary dict, run dir); the lab must be gone after."""
    def run(scenario_id, **overrides):
        parsed, raw = scenario.load(scenario_id, overrides)
        run = once_more_if_the_clock_was_set(lambda: run_scenario_once(parsed, raw, tmp_path))
        assert_nothing_left(run)
        return run.summary(), run.path
    return run


def assert_waited(cell, bounds, name=None):
    """A cell's wait held to docs/facts/kernel.md as it counts it: from the client's first unanswered
    send, the failed operation's own start. Counted from the fault's stamp instead, the wait also
    holds how late the probe sent after the fault: a busy CI machine's five 5 s read timeouts each
    ended 5.28 s after the stamp, all with the same delay. Where the kernel ended it (the run's own
    witness, ss: the cell's `kernel`), that end is held to the window and the client's report to
    how late a client reports its kernel's error (REPORT_LAG_S); else the report itself."""
    name = name or cell["cell"]
    probe, kernel = cell["probe"], cell.get("kernel")
    assert probe["error"], (name, probe)
    if kernel:
        assert_error_within(cell, bounds, f"{name}, from its send", from_s=probe["sent_s"])
        return
    assert_within(probe["stall_s"], bounds, f"{name} (its failed operation, from its send; "
                                            f"{probe['detect_s']} s after the fault's stamp)")


def cells(summary):
    return {c["cell"]: c for c in summary["cells"]}


@pytest.fixture(scope="package")
def matrix_run(tmp_path_factory):
    """The lvs-switchover-matrix run, shared by the tests that read it: (summary, run dir, wall s)."""
    import time
    started = time.monotonic()
    tmp = tmp_path_factory.mktemp("matrix")
    parsed, raw = scenario.load("lvs-switchover-matrix", {"warmup_s": 3})   # the probes settle their RTO first
    run = once_more_if_the_clock_was_set(lambda: run_scenario_once(parsed, raw, tmp))
    assert_nothing_left(run)
    return run.summary(), run, time.monotonic() - started
