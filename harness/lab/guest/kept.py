"""A kept guest (`make up`): what its home records so a later process can find and use it."""
import json
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ...errors import LabError
from . import disk as guest_disk
from . import kernels
from .qemu import Vm
from .ssh import Ssh

if TYPE_CHECKING:
    from .engine import GuestEngine

GUEST_FILE = "guest.json"     # in a kept guest's home: how to find it again


def record(engine: "GuestEngine", home: Path) -> None:
    kernel, vm, ssh = engine.booted_kernel(), engine.running_vm(), engine.open_ssh()
    if engine.disk is None or vm.process is None or ssh.forwarder is None:
        raise LabError("guest: keeping a guest that is not up (its disk, QEMU or Docker socket forward missing)")
    (home / GUEST_FILE).write_text(json.dumps({
        "spec": engine.spec, "kernel": {"package": kernel.package, "version": kernel.version,
                                        "release": kernel.release, "root": str(kernel.root)},
        "disk": str(engine.disk.directory), "port": vm.port, "qemu_pid": vm.process.pid,
        "forwarder_pid": ssh.forwarder.pid, "accel": engine.accel, "timings": engine.timings,
        "forwarded": {str(guest): port for guest, port in vm.forwarded.items()},
        "clock": engine.clock, "started": engine.started}, indent=1))


def attach(engine_class: type["GuestEngine"], home: Path, out: IO[str]) -> "GuestEngine":
    info = json.loads((home / GUEST_FILE).read_text())
    engine = engine_class(info["spec"], out=out, home=home)
    engine.kernel = kernels.Kernel(**{**info["kernel"], "root": Path(info["kernel"]["root"])})
    engine.disk = guest_disk.GuestDisk(info["disk"])
    engine.state_dir, engine.accel, engine.timings = home, info["accel"], info["timings"]
    engine.clock, engine.clock_offset_s = info["clock"], info["clock"]["offset_s"]
    engine.started = info.get("started")
    engine.vm = Vm.attached(home, info["qemu_pid"], info["port"],
                            {int(guest): port for guest, port in info.get("forwarded", {}).items()})
    engine.ssh = Ssh(info["port"], engine.disk, home, forwarder_pid=info["forwarder_pid"])
    return engine
