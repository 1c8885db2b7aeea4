"""Lab.exec_each (harness/lab/base.py): with check=False a command that hangs past its timeout is
a result (returncode 124), not the end of everything asked beside it."""
import subprocess

import pytest

from harness.lab.base import ExecResult, Lab


class Answers:
    def exec(self, service, command, check=True, timeout=60, stdin=None):
        if service == "slow":
            raise subprocess.TimeoutExpired(command, timeout)
        return ExecResult(0, f"{service} answers\n", "")


def test_a_hung_command_is_a_result_beside_the_others_when_not_checked():
    results = Lab.exec_each(Answers(), [("fast", ["true"]), ("slow", ["sleep", "99"])], check=False, timeout=5)
    assert results[0].stdout == "fast answers\n"
    assert (results[1].returncode, results[1].stderr) == (124, "no answer within 5 s")


def test_a_hung_command_still_raises_when_checked():
    with pytest.raises(subprocess.TimeoutExpired):
        Lab.exec_each(Answers(), [("slow", ["sleep", "99"])], check=True)
