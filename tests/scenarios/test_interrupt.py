"""Ctrl-C in the middle of a run: faults undone, loads stopped, lab down, summary written; also
where the run was asked to keep its lab (KEEP_LAB=1 keeps the lab of a run that ended, not of one
stopped on the way: a write-loss test stopped by Ctrl-C once left its kept lab up)."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from harness.lab import REPO, labelled_leftovers
from tests.scenarios.conftest import NOTHING, PROJECT


@pytest.mark.parametrize("keep", [{}, {"KEEP_LAB": "1"}], ids=["", "keep-lab"])
def test_ctrl_c_during_a_fault_cleans_up_everything(tmp_path, keep):
    env = {**os.environ, "LAB_PROJECT": PROJECT, "BLACKHOLE_RESULTS": str(tmp_path),
           "WARMUP_S": "3", **keep}
    run = subprocess.Popen([sys.executable, "-m", "harness", "run", "app-hang"], cwd=REPO, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           start_new_session=True)
    deadline = time.time() + 180
    events = None
    while time.time() < deadline and run.poll() is None:
        found = list(tmp_path.glob("app-hang/*/events.jsonl"))
        if found and '"event": "fault"' in found[0].read_text():
            events = found[0]
            break
        time.sleep(0.3)
    assert events, f"the run never reached its fault step:\n{run.communicate()[0] if run.poll() is not None else ''}"
    os.killpg(run.pid, signal.SIGINT)          # what a terminal's Ctrl-C does
    output, _ = run.communicate(timeout=120)
    assert run.returncode == 130, output
    assert labelled_leftovers(project=PROJECT) == NOTHING
    harness_events = [json.loads(line) for line in events.read_text().splitlines() if '"harness"' in line]
    names = [e["event"] for e in harness_events]
    assert "interrupted" in names and "lab_down" in names and "lab_kept" not in names
    assert any(e["event"] == "recovered" and e["name"] == "app_hang" for e in harness_events)
    assert (events.parent / "summary.json").exists()
