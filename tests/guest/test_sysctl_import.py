"""The sysctl import on a real dump: `sysctl -a` of the guest kernel the lab boots, read whole
(every line a setting, a note, or refused): the release is the kernel's own and the client-side
knobs are that kernel's defaults as its /proc says them, read apart from the dump."""
import pytest

from harness.imports import sysctl_dump
from harness.measure.sysctl_knobs import SYSCTL_KNOBS

pytestmark = pytest.mark.guest


def test_the_guest_kernels_own_dump_is_read_whole(guest):
    dump = sysctl_dump.parse(guest.ssh.run("sysctl -a 2>&1", timeout=120, check=False).stdout, "guest sysctl -a")
    assert dump.kernel_release == guest.kernel_release()
    assert dump.others > 100 and dump.not_modelled          # a whole dump: most keys are not the lab's business
    for key, value in dump.cell:
        proc = guest.ssh.run(f"cat {SYSCTL_KNOBS[key].proc_path}").stdout.strip()
        assert str(value) == proc, key
    assert ("tcp_retries2", 15) in dump.cell
