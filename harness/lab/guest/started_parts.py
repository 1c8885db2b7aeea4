"""What a started guest holds: its kernel, its QEMU, its ssh, its disk and its state directory, each
None until the guest starts and again once it stops. The accessors give each one or raise, for
code that runs only on a started guest (GuestEngine, ClusterNode). The kernel is reached over the
ssh (ShellKernel)."""
from pathlib import Path
from typing import Any

from ...errors import LabError
from ..shell_kernel import ShellKernel
from .disk import GuestDisk
from .kernels import Kernel
from .qemu import Vm
from .ssh import Ssh


class StartedParts(ShellKernel):
    kernel: Kernel | None
    vm: Vm | None
    ssh: Ssh | None
    disk: GuestDisk | None
    state_dir: Path | None
    started: dict[str, Any] | None     # {"how": "booted"} or {"how": "resumed", "saved": ...}

    def booted_kernel(self) -> Kernel:
        if self.kernel is None:
            raise LabError("guest: not started")
        return self.kernel

    def running_vm(self) -> Vm:
        if self.vm is None:
            raise LabError("guest: not started")
        return self.vm

    def open_ssh(self) -> Ssh:
        if self.ssh is None:
            raise LabError("guest: its ssh is not up")
        return self.ssh
