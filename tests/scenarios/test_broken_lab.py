"""A lab that breaks under a run (a container removed from outside) ends the run within seconds,
marked failed with the reason, with nothing of it left."""
import os
import subprocess
import sys
import time

from harness.lab import REPO, labelled_leftovers
from harness.store import RunDir
from tests.scenarios.conftest import NOTHING


def test_a_client_container_removed_mid_run_ends_the_run_with_the_reason(tmp_path):
    env = {**os.environ, "BLACKHOLE_RESULTS": str(tmp_path), "TCP_RETRIES2": "15", "WARMUP_S": "30"}
    run = subprocess.Popen([sys.executable, "-m", "harness", "run", "lvs-switchover"], cwd=REPO, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    deadline, run_dir = time.time() + 180, None
    while time.time() < deadline and run.poll() is None:
        found = [p for p in tmp_path.glob("lvs-switchover/*") if not p.is_symlink()]
        if found and '"loads_ready"' in RunDir(found[0]).read(RunDir(found[0]).events_file):
            run_dir = RunDir(found[0])
            break
        time.sleep(0.3)
    assert run_dir, "the run never got its clients going"
    project = run_dir.lab_project()
    [client] = [name for name in labelled_leftovers(project=project)["containers"] if "client-r15" in name]
    removed_at = time.time()
    subprocess.run(["docker", "rm", "-f", client], check=True, capture_output=True)
    output, _ = run.communicate(timeout=180)
    noticed = [line for line in output.splitlines() if "the lab broke" in line]
    assert run.returncode == 2 and noticed, output
    status = run_dir.summary()["status"]
    assert status["state"] == "failed" and "client-r15: its container is gone" in status["reason"]
    assert status["t"] - removed_at <= 10, f"noticed {status['t'] - removed_at:.1f} s after the removal"
    assert labelled_leftovers(project=project) == NOTHING
