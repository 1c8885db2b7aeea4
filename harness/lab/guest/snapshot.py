"""Saved guests. The first guest booted for a kernel, disk and machine is paused once its Docker
engine answers, its memory written to a file and its disk's changes kept; every later guest of
the same kind resumes that state instead of booting (under TCG the boot and dockerd's start took
23 s on 6.12). A resumed guest is the same kernel in the same state as a fresh boot's, minus what
a boot draws at random once: its random generator is reseeded from this host on resume, but the
secrets the kernel drew before the save (TCP's sequence-number key, boot_id) are shared by every
guest resumed from one save.

  <cache>/guest/saved/<key>/memory       QEMU's migration stream of the paused guest
                            disk.qcow2   its overlay at that moment (backed by the lab's disk)
                            saved.json   what it was saved from, when, and how long that took

The key covers all a resumed machine must match: the disk, the kernel's package, initramfs and
modules disk, the CPUs, memory, accelerator, QEMU's version and the code of its command line.
GUEST_SNAPSHOTS=0 boots every guest and saves none.
"""
import dataclasses
import hashlib
import inspect
import json
import os
import shlex
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ...errors import LabError
from ...settings import machine
from .cache import cache_dir
from .qemu import Vm, qemu_version
from .qmp import Qmp

KEEP = 6                             # a five-kernel matrix's and one more
SAVE_TIMEOUT_S = 120
MAX_BANDWIDTH = 64 << 30             # QEMU's default is 128 MiB/s, for live migration over a network
RESEED = ("perl -e 'open(my $f, \"+<\", \"/dev/urandom\") or die $!; my $b = pack(\"H*\", $ARGV[0]); "
          "ioctl($f, 0x40085203, pack(\"ii\", 8 * length($b), length($b)) . $b) or die \"RNDADDENTROPY: $!\"; "
          "ioctl($f, 0x5207, 0) or die \"RNDRESEEDCRNG: $!\"' ")


@dataclasses.dataclass(frozen=True)
class Snapshot:
    directory: Path

    memory = property(lambda self: self.directory / "memory")
    disk = property(lambda self: self.directory / "disk.qcow2")
    info_file = property(lambda self: self.directory / "saved.json")

    @property
    def key(self) -> str:
        return self.directory.name

    def info(self) -> dict[str, Any]:
        return json.loads(self.info_file.read_text())


def enabled(environ: Mapping[str, str] | None = None) -> bool:
    value = machine.guest_snapshots(environ)
    if value not in ("0", "1"):
        raise LabError(f"GUEST_SNAPSHOTS={value!r}: 1 resumes saved guests (the default), 0 boots every guest")
    return value == "1"


def _stamp(path: str | os.PathLike[str]) -> str:
    stat = Path(path).stat()
    return f"{path} {stat.st_size} {stat.st_mtime_ns}"


def key(vm: Vm) -> str:
    """What a guest booted as vm is, for resuming: equal keys, interchangeable machines."""
    h = hashlib.sha256()
    kernel = vm.started_kernel()
    if vm.disk_image is None or vm.initramfs is None or vm.modules_disk is None:
        raise LabError("guest: a QEMU without its disk, initramfs and modules has nothing to save")
    for part in (_stamp(vm.disk_image), kernel.package, kernel.version, _stamp(vm.initramfs),
                 _stamp(vm.modules_disk), vm.cpus, vm.memory_mb, vm.accel, qemu_version(), vm.kernel_args,
                 sorted(vm.forwards), inspect.getsource(Vm.command)):
        h.update(str(part).encode() + b"\0")
    return h.hexdigest()[:16]


def _home() -> Path:
    return cache_dir("guest", "saved")


def find(wanted: str) -> "Snapshot | None":
    """The saved guest of this key, if one is complete and its disk is still there."""
    snapshot = Snapshot(_home() / wanted)
    if not snapshot.info_file.exists():
        return None
    if not Path(snapshot.info()["disk_image"]).exists():
        discard(snapshot)
        return None
    os.utime(snapshot.info_file)          # the least recently used go first
    return snapshot


def discard(snapshot: "Snapshot") -> None:
    shutil.rmtree(snapshot.directory, ignore_errors=True)


def save(vm: Vm, wanted: str, say: Callable[[str], None]) -> float:
    """Pause vm, write its memory and disk state as the saved guest `wanted`, and let it run on.
    The guest must be quiet (no connection of this host's open in it). Returns seconds paused."""
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix=f".{wanted}-", dir=_home()))
    try:
        with Qmp(vm.qmp_socket) as qmp:
            qmp.execute("stop")
            try:
                qmp.execute("migrate-set-parameters", **{"max-bandwidth": MAX_BANDWIDTH})
                qmp.execute("migrate", uri=f"exec:cat > {shlex.quote(str(work / 'memory'))}")
                _wait_migrated(qmp)
                shutil.copyfile(vm.overlay, work / "disk.qcow2")
            finally:
                qmp.execute("cont")       # after a completed migration too: QEMU takes its disks back
        paused_s = round(time.monotonic() - started, 1)
        memory_mib = (work / "memory").stat().st_size >> 20
        (work / "saved.json").write_text(json.dumps({
            "utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "kernel": vm.started_kernel().package,
            "kernel_version": vm.started_kernel().version, "disk_image": str(vm.disk_image), "cpus": vm.cpus,
            "memory_mb": vm.memory_mb, "accel": vm.accel, "qemu": qemu_version(), "paused_s": paused_s,
            "memory_mib": memory_mib}, indent=1) + "\n")
        try:
            work.rename(_home() / wanted)
        except OSError:                   # another run saved the same guest first
            shutil.rmtree(work, ignore_errors=True)
        prune()
        say(f"guest: saved for the next run to resume ({memory_mib} MiB of memory, {paused_s} s paused)")
        return paused_s
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def _wait_migrated(qmp: Qmp) -> None:
    deadline = time.monotonic() + SAVE_TIMEOUT_S
    while True:
        status = qmp.execute("query-migrate")
        if status.get("status") == "completed":
            return
        if status.get("status") in ("failed", "cancelled"):
            raise LabError(f"guest: saving its state failed: {status.get('error-desc', status.get('status'))}")
        if time.monotonic() > deadline:
            qmp.execute("migrate_cancel")
            raise LabError(f"guest: saving its state took over {SAVE_TIMEOUT_S} s; cancelled")
        time.sleep(0.1)


def resume(vm: Vm, timeout_s: float) -> None:
    """Once vm (started with restore=) has loaded its saved memory, let it run: the guest was
    paused when saved, and QEMU keeps a loaded guest in the state it was saved in."""
    deadline = time.monotonic() + timeout_s
    with Qmp(vm.qmp_socket, timeout_s=timeout_s, alive=vm.alive) as qmp:
        while qmp.execute("query-status")["status"] == "inmigrate":
            if time.monotonic() > deadline:
                raise LabError(f"guest: loading the saved guest's memory took over {timeout_s} s")
            time.sleep(0.05)
        status = qmp.execute("query-migrate").get("status")
        if status != "completed":
            raise LabError(f"guest: loading the saved guest's memory ended {status}")
        qmp.execute("cont")


def prune(keep: int = KEEP) -> None:
    """Keep the `keep` most recently used saved guests, and the partial ones of runs still saving."""
    saved = sorted((Snapshot(d) for d in _home().iterdir() if d.is_dir() and (d / "saved.json").exists()),
                   key=lambda s: s.info_file.stat().st_mtime, reverse=True)
    for snapshot in saved[keep:]:
        discard(snapshot)


def reseed_command() -> str:
    """The shell command that mixes 64 bytes of this host's randomness into a resumed guest's
    pool and reseeds its generator (RNDADDENTROPY, RNDRESEEDCRNG: every kernel since 4.17)."""
    return RESEED + os.urandom(64).hex()
