"""A guest whose kernel dies while booting is booted once more; a second death ends the run with
the kernel's own line, both consoles kept with the run and nothing left. The death here is a real
panic: GUEST_KERNEL_ARGS names an initramfs program that does not exist, so the kernel falls back
to mounting a root device it was never given and panics (init/main.c, prepare_namespace)."""
import glob
import os
import subprocess
import sys

import pytest

from harness.lab import REPO
from harness.lab.guest.qemu import running_guests
from tests.guest.conftest import KERNEL

pytestmark = [pytest.mark.guest, pytest.mark.xdist_group("tests/guest")]
STATE_DIRS = "/tmp/blackhole-guest-*"
PANIC = "Kernel panic - not syncing: VFS: Unable to mount root fs"


def test_a_kernel_that_dies_booting_is_booted_once_more_and_then_named(tmp_path):
    guests_before, dirs_before = set(running_guests()), set(glob.glob(STATE_DIRS))
    env = {**os.environ, "KERNEL": KERNEL, "TCP_RETRIES2": "5", "BLACKHOLE_RESULTS": str(tmp_path),
           "LAB_PROJECT": "blackhole-lab-boot-death", "GUEST_KERNEL_ARGS": "rdinit=/no-such-init"}
    run = subprocess.run([sys.executable, "-m", "harness", "run", "lvs-switchover"], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=900)
    output = run.stdout + run.stderr
    assert run.returncode not in (0, None), output
    assert output.count("guest: booting ") == 2, output
    [retried] = [line for line in output.splitlines() if "booting it once more" in line]
    assert PANIC in retried, output
    assert any(line.startswith("blackhole: guest: its kernel died") and PANIC in line
               for line in output.splitlines()), output
    assert not set(running_guests()) - guests_before, "QEMU outlived the run"
    assert set(glob.glob(STATE_DIRS)) == dirs_before, "the overlay and state directory were left"
    [run_dir] = [p for p in tmp_path.glob("lvs-switchover/*") if not p.is_symlink()]
    for console in ("console-boot-1.log", "console.log"):
        assert PANIC in (run_dir / "guest" / console).read_text(errors="replace"), console
