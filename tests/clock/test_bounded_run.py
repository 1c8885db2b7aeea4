"""run_bounded (harness/lab/bounded_run.py): its limit holds for the children of the command too
(subprocess.run's kills the command alone and leaves its children running)."""
import subprocess
import time

import pytest

from harness.lab.bounded_run import run_bounded

# the shell's child keeps stdout open after the shell itself is killed
CHILD_HOLDS_THE_PIPE = ["sh", "-c", "sleep 31.7 & wait"]


def test_a_child_holding_the_output_pipe_does_not_outlive_the_limit():
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        run_bounded(CHILD_HOLDS_THE_PIPE, timeout=1)
    assert time.monotonic() - started < 15, "the child's 31.7 s sleep held the run past its limit"
    time.sleep(0.2)
    leftover = subprocess.run(["pgrep", "-f", "^sleep 31.7$"], capture_output=True, text=True).stdout.split()
    assert leftover == [], "the command's child outlived its limit"


def test_what_it_printed_and_its_exit_code_come_back():
    result = run_bounded(["sh", "-c", "echo out; echo err >&2; exit 3"], timeout=30)
    assert (result.returncode, result.stdout, result.stderr) == (3, "out\n", "err\n")
