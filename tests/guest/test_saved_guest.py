"""A guest resumed from its saved state instead of booted (harness/lab/guest/snapshot.py): a saved
state that does not load is thrown away, the guest booted and saved anew, and the next start
resumes that one; a resumed guest runs containers on a lab network like a booted one."""
import io
import subprocess

import pytest

from harness.lab import engine_for
from harness.lab.guest import snapshot
from harness.lab.guest.qemu import running_guests
from tests.guest.conftest import KERNEL

pytestmark = [pytest.mark.guest, pytest.mark.xdist_group("tests/guest")]


def _started():
    said = io.StringIO()
    engine = engine_for(KERNEL, out=said)
    try:
        engine.ensure_started()
    except BaseException:
        engine.stop()
        raise
    return engine, said.getvalue()


def _runs_a_container_on_an_internal_network(engine):
    script = ("docker network create --internal saved-guest-test >/dev/null && "
              "docker run --rm --network saved-guest-test blackhole-lab/client:dev sh -c 'ip -4 -o addr show eth0'; "
              "code=$?; docker network rm saved-guest-test >/dev/null; exit $code")
    result = engine.ssh.run(script, timeout=240, check=False)
    assert result.returncode == 0 and " inet " in result.stdout, result.stdout + result.stderr


def test_a_saved_guest_that_does_not_load_is_booted_saved_again_and_then_resumed():
    first, _ = _started()
    try:
        key = snapshot.key(first.vm)
    finally:
        first.stop()
    saved = snapshot.find(key)
    assert saved is not None, "a started guest left no saved state for the next one"
    saved.memory.write_bytes(b"not a migration stream")

    second, said = _started()
    try:
        assert second.started["how"] == "booted", said
        assert "the saved guest did not resume" in said and "booting instead" in said, said
        _runs_a_container_on_an_internal_network(second)
    finally:
        second.stop()
    again = snapshot.find(key)
    assert again is not None and again.info()["memory_mib"] > 1, "the booted guest was not saved anew"

    third, said = _started()
    qemu_pid = third.vm.process.pid
    try:
        assert third.started == {"how": "resumed", "saved": again.info(), "saved_key": key}, said
        assert third.kernel_release() == subprocess.run(
            third.ssh.argv("uname -r"), capture_output=True, text=True, timeout=60).stdout.strip()
        _runs_a_container_on_an_internal_network(third)
    finally:
        third.stop()
    assert qemu_pid not in running_guests(), "the resumed guest's QEMU outlived its stop"
