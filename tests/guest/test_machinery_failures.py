"""The guest's own machinery failing under a run: QEMU killed, the ssh tunnel to the guest's Docker
engine dropped, the guest's dockerd stopped. Each ends the run within seconds with one line
naming what failed, the run marked failed with what it measured so far kept, and nothing left
behind: no QEMU, no state directory (overlay, sockets), no ssh process. (A full disk under the
results: tests/scenarios/test_disk_full.py.)"""
import glob
import os
import signal
import subprocess
import time

import pytest

from harness.lab.guest.qemu import running_guests
from tests import background_run
from tests.guest.conftest import KERNEL

# One guest at a time: these count QEMU processes and state directories. QEMU killed is part of
# `make test`; the other two run with `make test-kernel`.
pytestmark = [pytest.mark.guest, pytest.mark.xdist_group("tests/guest")]
STATE_DIRS = "/tmp/blackhole-guest-*"


def _children(pid):
    """{pid: command line} of the processes whose parent is pid."""
    found = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = open(stat).read().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                child = int(stat.split("/")[2])
                found[child] = open(f"/proc/{child}/cmdline").read().split("\0")
        except (OSError, IndexError, ValueError):
            continue
    return found


def _forwarder(run_pid):
    return next((pid, argv) for pid, argv in _children(run_pid).items()
                if argv and argv[0] == "ssh" and "-N" in argv)


def kill_qemu(run_pid, guest_pid):
    os.kill(guest_pid, signal.SIGKILL)


def drop_tunnel(run_pid, guest_pid):
    os.kill(_forwarder(run_pid)[0], signal.SIGKILL)


def stop_dockerd(run_pid, guest_pid):
    """Over ssh with the tunnel's own options (its key, port and known host)."""
    argv = _forwarder(run_pid)[1]
    options = argv[1:argv.index("-N")]
    subprocess.run(["ssh", *options, "root@127.0.0.1", "pkill -x dockerd"], check=True, timeout=60)


@pytest.mark.parametrize("breaks, says", [
    pytest.param(kill_qemu, "the guest's QEMU is gone", id="qemu-killed"),
    pytest.param(drop_tunnel, "the ssh tunnel to the guest's Docker engine closed", id="tunnel-dropped",
                 marks=pytest.mark.kernel),
    pytest.param(stop_dockerd, "the guest's dockerd", id="dockerd-stopped", marks=pytest.mark.kernel),
])
def test_the_guest_machinery_failing_mid_run_ends_it_with_what_failed(tmp_path, breaks, says):
    guests_before, dirs_before = set(running_guests()), set(glob.glob(STATE_DIRS))
    run = background_run.start("lvs-switchover", tmp_path, KERNEL=KERNEL, TCP_RETRIES2="5", WARMUP_S="60",
                               LAB_PROJECT="blackhole-lab-machinery")
    try:
        run_dir = background_run.clients_going(run, tmp_path, "lvs-switchover", 900)   # a cold cache builds the disk first
        [guest] = set(running_guests()) - guests_before
        helpers = set(_children(run.pid))
        broken_at = time.time()
        breaks(run.pid, guest)
        output, _ = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    named = [line for line in output.splitlines() if says in line]
    assert run.returncode == 3 and named, output
    status = run_dir.summary()["status"]
    assert status["state"] == "failed" and says in status["reason"], status
    print(f"{says}: noticed {status['t'] - broken_at:.1f} s after; {named[0]}")
    # noticed mid-run: before the warm-up it broke in would have ended
    assert status["t"] < background_run.warm_up_end_t(run_dir, 60), f"noticed {status['t'] - broken_at:.1f} s after"
    assert run_dir.read(run_dir.probe_log("r5")), "what the probe measured was not kept"
    assert guest not in running_guests(), "QEMU outlived the run"
    assert set(glob.glob(STATE_DIRS)) == dirs_before, "the overlay and state directory were left"
    alive = [pid for pid in helpers if os.path.exists(f"/proc/{pid}")]
    assert not alive, f"processes the run started outlived it: {alive}"
