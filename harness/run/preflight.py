"""Before a lab starts: refuse the cells that need what the kernel under it lacks."""
from collections.abc import Callable, Sequence
from typing import Protocol

from ..control.base import ControlPlane
from ..errors import LabError
from ..faults.base import Fault
from ..lab.base import ClientCell
from ..scenario.knobs import SYSCTL_KNOBS


class KernelOfPlace(Protocol):
    """The kernel under a lab, as its place asks it (lab/base.py Lab.kernel)."""
    def kernel_release(self) -> str: ...
    def has_ipvs(self) -> bool: ...
    def has_netem(self) -> bool: ...
    def has_qdisc(self, kind: str) -> bool: ...
    def has_sysctl(self, path: str) -> bool: ...


def kernel_supports(cells: Sequence[ClientCell], control: ControlPlane | None = None,
                    faults: Sequence[Fault] = ()) -> Callable[[KernelOfPlace], None]:
    """A preflight for Lab.up(): cells (lab ClientCells) whose knobs the kernel lacks are refused,
    one message naming the cell, the knob and what would have it; so is a control plane that
    programs IPVS itself (keepalived) on a kernel without it, and a fault whose queueing
    discipline the kernel lacks."""
    recent = {k.sysctl: (name, k) for name, k in SYSCTL_KNOBS.items() if k.since}

    def check(kernel: KernelOfPlace) -> None:
        release = kernel.kernel_release()
        if control is not None and control.needs_ipvs and not kernel.has_ipvs():
            raise LabError(f"control: {control.name} programs IPVS, which kernel {release} does not have; run it in "
                           "a guest kernel that has it (KERNEL=6.12)")
        for fault in faults:
            for kind in fault.qdiscs_needed():
                if not kernel.has_qdisc(kind):
                    raise LabError(f"fault {fault.name} needs the tc qdisc {kind}, which kernel {release} does not "
                                   "have; run it in a guest kernel that has it (KERNEL=6.12)")
        for cell in cells:
            for sysctl, _ in cell.sysctls:
                if sysctl in recent and not kernel.has_sysctl(recent[sysctl][1].proc_path):
                    name, knob = recent[sysctl]
                    raise LabError(f"{cell.service}: {name} needs {sysctl}, which kernel {release} does not have "
                                   f"(it came with Linux {knob.since}); pick a newer KERNEL or drop the knob")
            if cell.netem and not kernel.has_netem():
                raise LabError(f"{cell.service}: link_delay_ms/link_loss_pct need tc netem, and kernel {release} "
                               "has no sch_netem; run it in a guest kernel that has it (KERNEL=6.1 or 6.12)")
    return check
