"""make clean's guests (harness/lab/cleanup.clean_guests): a state directory whose QEMU is gone is
removed; one still starting (no qemu.pid yet, made moments ago: a run beside this one) is not."""
import os
import tempfile
import time
from pathlib import Path

from harness.lab import cleanup


def _state(root, pid=None, age_s=0.0):
    state = Path(tempfile.mkdtemp(prefix="blackhole-guest-", dir=root))
    if pid is not None:
        (state / "qemu.pid").write_text(str(pid))
    when = time.time() - age_s
    os.utime(state, (when, when))
    return state


def test_a_starting_guest_is_kept_and_a_dead_one_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(cleanup, "GUEST_STATE_DIRS", (str(tmp_path / "blackhole-guest-*"),))
    dead_pid = 2 ** 22 + 1                      # above the largest pid_max: never a running QEMU
    starting = _state(tmp_path)
    dead = _state(tmp_path, pid=dead_pid)
    abandoned = _state(tmp_path, age_s=cleanup.STARTING_GUEST_S + 60)
    gone = cleanup.clean_guests()
    assert starting.exists() and str(starting) not in gone
    assert not dead.exists() and str(dead) in gone
    assert not abandoned.exists() and str(abandoned) in gone
