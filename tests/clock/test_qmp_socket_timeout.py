"""QEMU's control socket (harness/lab/guest/qmp.py): one that never appears is given up on after
the time asked for, not waited on."""
import time

import pytest

from harness.errors import LabError
from harness.lab.guest.qmp import Qmp


def test_a_control_socket_that_never_appears_is_given_up_on(tmp_path):
    started = time.monotonic()
    with pytest.raises(LabError, match="did not answer in 1 s"):
        Qmp(tmp_path / "absent.sock", timeout_s=1)
    assert time.monotonic() - started < 10
