"""A run interrupted while its guest boots leaves no QEMU process and no overlay behind."""
import glob
import os
import signal
import subprocess
import sys
import time

import pytest

from harness.lab import REPO
from harness.lab.guest.qemu import running_guests
from tests.guest.conftest import KERNEL

# One guest at a time: this test counts the QEMU processes and state directories around it.
pytestmark = [pytest.mark.guest, pytest.mark.xdist_group("tests/guest")]
STATE_DIRS = "/tmp/blackhole-guest-*"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_run_interrupted_during_boot_leaves_nothing(tmp_path, signum):
    guests_before, dirs_before = set(running_guests()), set(glob.glob(STATE_DIRS))
    env = {**os.environ, "KERNEL": KERNEL, "TCP_RETRIES2": "5", "BLACKHOLE_RESULTS": str(tmp_path),
           "LAB_PROJECT": "blackhole-lab-boot-interrupt"}
    run = subprocess.Popen([sys.executable, "-m", "harness", "run", "lvs-switchover"], cwd=REPO, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    deadline = time.time() + 600                     # a cold cache builds the guest's disk first
    while time.time() < deadline and run.poll() is None and not set(running_guests()) - guests_before:
        time.sleep(0.2)
    booting = set(running_guests()) - guests_before
    assert booting, f"no QEMU started:\n{run.communicate()[0] if run.poll() is not None else ''}"
    time.sleep(2)                                    # well inside the boot (ssh answers after ~13 s)
    os.killpg(run.pid, signum)
    output, _ = run.communicate(timeout=120)
    assert run.returncode == 128 + signum, output
    assert not booting & set(running_guests()), "QEMU outlived the run"
    assert set(glob.glob(STATE_DIRS)) == dirs_before, "the overlay and state directory were left"
    [run_dir] = [p for p in tmp_path.glob("lvs-switchover/*") if not p.is_symlink()]
    assert (run_dir / "guest" / "console.log").exists(), "the console log was not kept with the run"
    assert (run_dir / "summary.json").exists(), "the interrupted run got no summary"
