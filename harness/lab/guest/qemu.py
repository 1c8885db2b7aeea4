"""The guest's QEMU process: booted from a kernel, its initramfs and modules disk, with the lab's
disk read-only under a throwaway qcow2 overlay, reachable only on a loopback-forwarded ssh port.

Every guest's QEMU is named MARKER, which is how cleanup finds one whose owner is gone. A run's
QEMU dies with the process that started it (PR_SET_PDEATHSIG), whatever way that ends.
"""
import ctypes
import os
import shlex
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ... import polling
from ...errors import LabError
from ...settings import machine
from .console import kernel_death

if TYPE_CHECKING:
    from .kernels import Kernel
    from .snapshot import Snapshot

MARKER = "blackhole-lab-guest"
QEMU = "qemu-system-x86_64"
KERNEL_ARGS = "console=ttyS0 apparmor=0 panic=-1 loglevel=4"   # AppArmor on a minbase root breaks docker run


DEFAULT_GUEST_CPUS = 2


def kernel_args(environ: Mapping[str, str] | None = None) -> str:
    """The guest kernel's command line: KERNEL_ARGS and GUEST_KERNEL_ARGS's words after them
    (loglevel=7 to read more of a boot on the console, say)."""
    extra = machine.guest_kernel_args(environ).split()
    bad = [word for word in extra if any(c in word for c in "\"'\\")]
    if bad:
        raise LabError(f"GUEST_KERNEL_ARGS: {' '.join(bad)}: give kernel parameters as name or name=value, unquoted")
    return " ".join([KERNEL_ARGS, *extra])


def guest_cpus(environ: Mapping[str, str] | None = None) -> int:
    """GUEST_CPUS: the guest's virtual CPUs (default 2), at most this host's CPUs; each runs on a
    host thread of its own (thread=multi). With one, `make kernel-matrix scenario=matrix-short
    KERNELS="5.10 6.1 6.12 host 7.3"` took 1256 s and died on its last kernel (an `lbctl list` in the
    director unanswered for 60 s); with two it took 728 s, all five green. Two vCPUs under TCG
    can die of an int3 Oops when a static key flips while the other vCPU runs its site: the
    guest's init flips and holds the keys a lab's work would flip before sshd and dockerd start
    (files/blackhole-guest-init), and make test's guests have run with two since."""
    text = machine.guest_cpus(environ) or str(min(DEFAULT_GUEST_CPUS, os.cpu_count() or 1))
    if not text.isdigit() or not 1 <= int(text) <= (os.cpu_count() or 1):
        raise LabError(f"GUEST_CPUS={text!r}: give a whole number from 1 to this host's {os.cpu_count()} CPUs")
    return int(text)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)     # PR_SET_PDEATHSIG


def qemu_version() -> str | None:
    result = subprocess.run([QEMU, "--version"], capture_output=True, text=True)
    return result.stdout.splitlines()[0] if result.returncode == 0 else None


class KernelDied(LabError):
    """The guest's console says its kernel Oopsed or panicked: line, its words."""
    def __init__(self, message: str, line: str) -> None:
        super().__init__(message)
        self.line = line


class Vm:
    def __init__(self, state_dir: Path, kernel: "Kernel | None", initramfs: Path | None, modules_disk: Path | None,
                 disk_image: Path | None, accel: str | None, memory_mb: int = 6144, cpus: int = 1,
                 forwards: Iterable[int] = (), restore: "Snapshot | None" = None) -> None:
        """forwards: guest TCP ports reachable from this host's loopback too (besides ssh's).
        restore: a saved guest (snapshot.Snapshot) to resume instead of booting: its disk under
        the overlay and its memory loaded at start."""
        self.state_dir = Path(state_dir)
        self.kernel, self.initramfs, self.modules_disk, self.disk_image = kernel, initramfs, modules_disk, disk_image
        self.restore = restore
        self.kernel_args = kernel_args()
        self.accel, self.memory_mb, self.cpus = accel, memory_mb, cpus
        self.forwards = tuple(forwards)
        self.process: subprocess.Popen[bytes] | None = None
        self.pid: int | None = None
        self.port: int | None = None
        self.forwarded: dict[int, int] = {}            # guest port -> this host's loopback port

    @classmethod
    def attached(cls, state_dir: Path, pid: int, port: int, forwarded: Mapping[int, int] | None = None) -> "Vm":
        """A QEMU some other process started (a kept guest), known by its pid."""
        vm = cls(state_dir, None, None, None, None, None)
        vm.pid, vm.port, vm.forwarded = pid, port, dict(forwarded or {})
        return vm

    overlay = property(lambda self: self.state_dir / "root-overlay.qcow2")
    console_log = property(lambda self: self.state_dir / "console.log")
    pidfile = property(lambda self: self.state_dir / "qemu.pid")
    qmp_socket = property(lambda self: self.state_dir / "qmp.sock")

    def started_kernel(self) -> "Kernel":
        """The kernel it boots; a QEMU this process attached to (a kept guest) was started elsewhere."""
        if self.kernel is None:
            raise LabError("guest: a QEMU this process attached to is not started from here")
        return self.kernel

    def command(self) -> list[str]:
        kernel = self.started_kernel()
        cpu = ["-accel", "tcg,thread=multi", "-cpu", "max"] if self.accel == "tcg" else ["-accel", "kvm", "-cpu", "host"]
        forwards = "".join(f",hostfwd=tcp:127.0.0.1:{host}-:{guest}" for guest, host in sorted(self.forwarded.items()))
        return [QEMU, "-name", f"{MARKER},process={MARKER}", *cpu, "-smp", str(self.cpus), "-m", str(self.memory_mb),
                "-kernel", str(kernel.vmlinuz), "-initrd", str(self.initramfs), "-append", self.kernel_args,
                "-drive", f"file={self.overlay},if=virtio,format=qcow2,cache=unsafe",
                "-drive", f"file={self.modules_disk},if=virtio,format=raw,readonly=on",
                "-netdev", f"user,id=n0,restrict=on,hostfwd=tcp:127.0.0.1:{self.port}-:22{forwards}",
                "-device", "virtio-net-pci,netdev=n0", "-rtc", "base=utc",
                "-display", "none", "-monitor", "none", "-serial", f"file:{self.console_log}",
                "-qmp", f"unix:{self.qmp_socket},server=on,wait=off",
                "-no-reboot", "-pidfile", str(self.pidfile),
                *(["-incoming", f"exec:cat {shlex.quote(str(self.restore.memory))}"] if self.restore else [])]

    def start(self, detached: bool = False) -> "Vm":
        """Boot it. detached: it outlives this process (`make up`); otherwise it dies with it."""
        self.state_dir.mkdir(parents=True, exist_ok=True)
        backing, backing_format = (self.restore.disk, "qcow2") if self.restore else (self.disk_image, "raw")
        result = subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-b", str(backing), "-F", backing_format,
                                 str(self.overlay)], capture_output=True, text=True)
        if result.returncode:
            raise LabError(f"qemu-img create failed: {result.stderr.strip()}")
        self.port = free_port()
        self.forwarded = {guest: free_port() for guest in self.forwards}
        self.process = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=open(self.state_dir / "qemu.stderr", "w"), start_new_session=True,
                                        preexec_fn=None if detached else _die_with_parent)
        return self

    def alive(self) -> bool:
        if self.process is not None:
            return self.process.poll() is None
        return self.pid is not None and self.pid in running_guests()

    def console_tail(self, lines: int = 40) -> str:
        text = self.console_log.read_text(errors="replace") if self.console_log.exists() else ""
        stderr = self.state_dir / "qemu.stderr"
        text += stderr.read_text(errors="replace") if stderr.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def wait_for(self, what: str, timeout_s: float, ready: Callable[[], bool]) -> None:
        """Poll ready() each second until it answers True; a kernel that dies (also just before
        that answer), a QEMU that exits or the time running out raise with the console's last lines."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            answered = self.alive() and ready()
            died = self.kernel_death()
            if died:
                raise KernelDied(f"guest: its kernel died while waiting for {what}: {died}; console:\n"
                                 f"{self.console_tail()}", died)
            if answered:
                return
            if not self.alive():
                raise LabError(f"guest: QEMU exited while waiting for {what}; console:\n{self.console_tail()}")
            time.sleep(1)
        raise LabError(f"guest: gave up waiting {timeout_s} s for {what}; console:\n{self.console_tail()}")

    def kernel_death(self) -> str | None:
        """The console's line saying this guest's kernel Oopsed or panicked, or None."""
        return kernel_death(self.console_log.read_text(errors="replace")) if self.console_log.exists() else None

    def stop(self, timeout_s: float = 10) -> None:
        """Kill QEMU (the overlay is thrown away, so nothing needs a clean shutdown) and delete the overlay."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        elif self.process is None and self.pid is not None and self.alive():
            kill_pid(self.pid, timeout_s)
        self.overlay.unlink(missing_ok=True)


def kill_pid(pid: int, timeout_s: float = 10) -> None:
    """Stop a QEMU this process did not start (a detached guest, or one whose owner is gone)."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    if not polling.until(lambda: not _exists(pid), timeout_s):
        os.kill(pid, signal.SIGKILL)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def running_guests() -> dict[int, str]:
    """{pid: command line} of every QEMU named MARKER on this machine."""
    found = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmdline and cmdline[0].endswith(QEMU.encode()) and any(MARKER.encode() in a for a in cmdline):
            found[int(proc.name)] = b" ".join(cmdline).decode(errors="replace")
    return found
