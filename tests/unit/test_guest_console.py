"""Reading a guest console for its kernel's death, and GUEST_KERNEL_ARGS."""
import pytest

from harness.errors import LabError
from harness.lab.guest.console import kernel_death
from harness.lab.guest.qemu import KERNEL_ARGS, kernel_args

# A 6.12 guest's console, as tests/guest/test_boot_death.py's panic left it.
PANIC = """\
[    3.454812] /dev/root: Can't lookup blockdev
[    3.457727] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)
[    3.458416] CPU: 0 UID: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.117+deb12-amd64 #1  Debian 6.12.117-1~deb12u1
[    3.461073]  panic+0x344/0x3a0
"""
# x86's die header (arch/x86/kernel/dumpstack.c, "%s: %04lx [#%d]"), with "Oops: " before it since 6.10.
OOPS_5_10 = """\
[    2.270113] int3: 0000 [#1] SMP NOPTI
[    2.270200] CPU: 1 PID: 1 Comm: swapper/0 Not tainted 5.10.0-46-amd64 #1 Debian 5.10.262-1
[    2.270300] RIP: 0010:update_rq_clock+0x20/0x140
"""
OOPS_6_12 = """\
[    2.270113] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
[    2.270200] CPU: 1 UID: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.117+deb12-amd64 #1
[    2.270300] RIP: 0010:update_rq_clock+0x20/0x140
"""
BOOTED = """\
[    1.100000] virtio_net virtio0 eth0: renamed from eth0
[    4.200000] WARNING: CPU: 0 PID: 12 at kernel/sched/core.c:100 something+0x1/0x2
[    5.000000] blackhole-guest-init: static keys held
"""


def test_a_panic_is_named_by_its_line():
    assert kernel_death(PANIC) == ("[    3.457727] Kernel panic - not syncing: VFS: Unable to mount root fs on "
                                   "unknown-block(0,0)")


@pytest.mark.parametrize("console", [OOPS_5_10, OOPS_6_12], ids=["5.10", "6.10+"])
def test_an_oops_is_named_with_the_function_it_died_in(console):
    death = kernel_death(console)
    assert "int3: 0000 [#1]" in death and death.endswith("(RIP: 0010:update_rq_clock+0x20/0x140)")


def test_a_warning_or_a_quiet_boot_is_no_death():
    assert kernel_death(BOOTED) is None
    assert kernel_death("") is None


def test_extra_kernel_args_follow_the_labs_own():
    assert kernel_args({}) == KERNEL_ARGS
    assert kernel_args({"GUEST_KERNEL_ARGS": " loglevel=7  rdinit=/x "}) == KERNEL_ARGS + " loglevel=7 rdinit=/x"


def test_quoted_kernel_args_are_refused():
    with pytest.raises(LabError, match="GUEST_KERNEL_ARGS"):
        kernel_args({"GUEST_KERNEL_ARGS": 'init="/bin/sh -x"'})
