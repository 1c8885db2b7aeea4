"""make soak-interrupt's bound on a run that does not end after its signal: its whole process group
is killed and reaped, so nothing of it outlives the soak (a CI run once left a lab behind)."""
import os
import subprocess
import sys
import time

from harness.soak import ended_within


def test_a_run_that_ends_gives_its_exit_code():
    run = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"], start_new_session=True)
    assert ended_within(run, 30) == 3


def test_a_run_still_going_past_the_limit_is_killed_with_its_children():
    script = "import subprocess, sys, time; print(subprocess.Popen(['sleep', '300']).pid, flush=True); time.sleep(300)"
    run = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, start_new_session=True)
    child = int(run.stdout.readline())
    assert ended_within(run, 0.5) is None
    assert run.returncode is not None
    for _ in range(100):                 # the child, in the same group, died of the same SIGKILL
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        with open(f"/proc/{child}/stat") as stat:
            if stat.read().split(")")[-1].split()[0] == "Z":
                break
        time.sleep(0.1)
    else:
        raise AssertionError(f"sleep {child} outlived the soak's kill")
