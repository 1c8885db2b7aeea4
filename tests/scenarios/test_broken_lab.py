"""A lab that breaks under a run (a container removed from outside) ends the run mid-run (seconds),
marked failed with the reason, with nothing of it left: no container, network or process."""
import subprocess
import time

from harness.lab import labelled_leftovers
from tests import background_run
from tests.scenarios.conftest import NOTHING


def test_a_client_container_removed_mid_run_ends_the_run_with_the_reason(tmp_path):
    run = background_run.start("lvs-switchover", tmp_path, TCP_RETRIES2="15", WARMUP_S="30")
    run_dir = background_run.clients_going(run, tmp_path, "lvs-switchover", 180)
    project = run_dir.lab_project()
    [client] = [name for name in labelled_leftovers(project=project)["containers"] if "client-r15" in name]
    removed_at = time.time()
    subprocess.run(["docker", "rm", "-f", client], check=True, capture_output=True)
    output, _ = run.communicate(timeout=180)
    noticed = [line for line in output.splitlines() if "the lab broke" in line]
    assert run.returncode == 3 and noticed, output
    status = run_dir.summary()["status"]
    assert status["state"] == "failed" and "client-r15: its container is gone" in status["reason"]
    # noticed mid-run: before the warm-up it broke in would have ended (a busy machine slows the check)
    print(f"noticed {status['t'] - removed_at:.1f} s after the removal")
    assert status["t"] < background_run.warm_up_end_t(run_dir, 30), f"noticed {status['t'] - removed_at:.1f} s after"
    assert labelled_leftovers(project=project) == NOTHING
    # nor a process of it: the run's background work (env.json, the director's table) was stopped
    # by its cleanup, not left running docker execs into a lab that is gone
    left = subprocess.run(["pgrep", "-af", project], capture_output=True, text=True).stdout
    assert not left, left
