"""Lab.exec_each (harness/lab/base.py): with check=False a command that hangs past its timeout is
a result (returncode 124), not the end of everything asked beside it; a command may bring its own
stdin."""
import subprocess

import pytest

from harness.lab.base import ExecResult, Lab


class Answers:
    def exec(self, service, command, check=True, timeout=60, stdin=None):
        if service == "slow":
            raise subprocess.TimeoutExpired(command, timeout)
        return ExecResult(0, f"{service} answers\n", "" if stdin is None else f"read {stdin}")


def test_a_hung_command_is_a_result_beside_the_others_when_not_checked():
    results = Lab.exec_each(Answers(), [("fast", ["true"]), ("slow", ["sleep", "99"])], check=False, timeout=5)
    assert results[0].stdout == "fast answers\n"
    assert (results[1].returncode, results[1].stderr) == (124, "no answer within 5 s")


def test_a_hung_command_still_raises_when_checked():
    with pytest.raises(subprocess.TimeoutExpired):
        Lab.exec_each(Answers(), [("slow", ["sleep", "99"])], check=True)


def test_a_command_with_its_own_stdin_gets_it_and_the_others_the_shared_one():
    results = Lab.exec_each(Answers(), [("a", ["nft", "-f", "-"], "its own"), ("b", ["nft", "-f", "-"])],
                            stdin="shared")
    assert [r.stderr for r in results] == ["read its own", "read shared"]
