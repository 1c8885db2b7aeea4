"""The disk under the results filling up while a run writes: the run ends within seconds with one
line saying so, marked failed on the space it kept for that (its summary says why), what it
measured until then kept, and nothing of its lab left. The results live on a small tmpfs made
for the test (unmounted after it, whatever happens)."""
import subprocess
import time

from harness.lab import labelled_leftovers
from tests import background_run
from tests.scenarios.conftest import NOTHING


def _fill(directory):
    """Write zeros into directory until the disk refuses (ENOSPC ends dd)."""
    subprocess.run(["dd", "if=/dev/zero", f"of={directory}/filler", "bs=1M"], capture_output=True)


def test_a_full_disk_mid_run_ends_the_run_with_the_reason_and_its_summary(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "blackhole-test-full", str(results)], check=True)
    try:
        run = background_run.start("lvs-switchover", results, TCP_RETRIES2="15", WARMUP_S="30")
        run_dir = background_run.clients_going(run, results, "lvs-switchover", 180)
        project = run_dir.lab_project()
        filled_at = time.time()
        _fill(results)
        output, _ = run.communicate(timeout=180)
        said = [line for line in output.splitlines() if "is full" in line]
        assert run.returncode == 3 and said, output
        status = run_dir.summary()["status"]
        assert status["state"] == "failed" and "is full" in status["reason"], status
        print(f"{said[0]} (noticed {status['t'] - filled_at:.1f} s after the disk filled)")
        # noticed mid-run: before the warm-up it filled in would have ended
        assert status["t"] < background_run.warm_up_end_t(run_dir, 30), status
        assert run_dir.read(run_dir.probe_log("r15")), "what the probe measured was not kept"
        assert labelled_leftovers(project=project) == NOTHING
    finally:
        subprocess.run(["umount", "--lazy", str(results)], capture_output=True)
