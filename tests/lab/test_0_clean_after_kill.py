"""`make clean` removes a lab whose owner died (a SIGKILLed `make up`) and leaves alone one that
`make up` keeps: it never touches a lab that is somebody's.

Named to run first: the other tests of this package bring their own lab up afterwards.
"""
import os
import signal
import subprocess
import time
from pathlib import Path

from harness.lab import REPO, labelled_leftovers, registry
from tests import make_env

NOTHING = {"containers": [], "networks": [], "volumes": []}
KEPT, KILLED = f"blackhole-test-kept-{os.getpid()}", f"blackhole-test-killed-{os.getpid()}"


def make(target, project, **kwargs):
    env = make_env.environment(LAB_PROJECT=project)
    return subprocess.run(["make", target], cwd=REPO, env=env, capture_output=True, text=True, **kwargs)


def wait_until_group_gone(pgid, limit_s=30):
    """SIGKILL is sent at once but a process takes a moment to exit; make clean must see it dead."""
    deadline = time.time() + limit_s
    while time.time() < deadline:
        if not any(registry.process_start(pid) for pid in group_members(pgid)):
            return
        time.sleep(0.1)
    raise AssertionError(f"process group {pgid} still alive {limit_s} s after SIGKILL")


def group_members(pgid):
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            members.append(int(stat.parent.name))
    return members


def kill_make_up_midway(attempts=3):
    """Start `make up` for KILLED and SIGKILL it once its containers exist. On a loaded machine the
    kill can land after the lab came up and was kept: that is not the case under test, so that
    lab is taken down and the kill tried again. Returns the last `make up` process."""
    for _ in range(attempts):
        killed = subprocess.Popen(["make", "up"], cwd=REPO, env=make_env.environment(LAB_PROJECT=KILLED),
                                  start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 120
        while time.time() < deadline and not labelled_leftovers(project=KILLED)["containers"]:
            time.sleep(0.2)
        os.killpg(killed.pid, signal.SIGKILL)
        killed.wait()
        wait_until_group_gone(killed.pid)
        assert labelled_leftovers(project=KILLED)["containers"], "make up created no container within 120 s"
        if not registry.entries().get(KILLED, {}).get("kept"):
            return killed
        make("down", KILLED, timeout=120)
    raise AssertionError(f"make up finished before its SIGKILL landed, {attempts} times")


def test_make_clean_removes_the_dead_owners_lab_and_keeps_the_kept_one():
    up = make("up", KEPT, timeout=300)
    assert up.returncode == 0, up.stdout + up.stderr
    try:
        kill_make_up_midway()
        assert labelled_leftovers(project=KILLED)["networks"], "nothing left to clean: the test proves nothing"

        cleaned = subprocess.run(["make", "clean"], cwd=REPO, env=make_env.environment(), capture_output=True, text=True,
                                 check=True)
        assert labelled_leftovers(project=KILLED) == NOTHING, cleaned.stdout
        assert f"removed {KILLED}" in cleaned.stdout and f"kept {KEPT}: kept by `make up`" in cleaned.stdout
        assert labelled_leftovers(project=KEPT)["containers"], "make clean removed a kept lab"
    finally:
        make("down", KEPT, timeout=120)
        if any(labelled_leftovers(project=KILLED).values()):   # the test failed before make clean removed it
            make("down", KILLED, timeout=120)
    assert labelled_leftovers(project=KEPT) == NOTHING
