"""TCG always works; KVM only where a quick probe boots a kernel with it (on this workplace's
machines KVM guests hang). The probe's answer is cached per host kernel and QEMU version;
BLACKHOLE_ACCEL=tcg|kvm decides without probing."""
import json
import os
import platform
import subprocess
import tempfile
import time
from pathlib import Path

from ...settings import machine
from .cache import cache_dir
from .kernels import Kernel
from .qemu import QEMU, qemu_version

PROBE_S = 15


def choose(kernel: Kernel) -> tuple[str, str]:
    forced = machine.forced_accel()
    if forced in ("tcg", "kvm"):
        return forced, "forced by BLACKHOLE_ACCEL"
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "tcg", "no usable /dev/kvm"
    record = cache_dir("guest") / "kvm-probe.json"
    key = f"{platform.release()} {qemu_version()}"
    cached = json.loads(record.read_text()) if record.exists() else {}
    if key not in cached:
        cached[key] = probe_kvm(kernel)
        record.write_text(json.dumps(cached, indent=1))
    works = cached[key]
    return ("kvm", "the KVM probe booted a kernel") if works else ("tcg", f"KVM probe: no kernel output in {PROBE_S} s")


def probe_kvm(kernel: Kernel) -> bool:
    """Boot the kernel under KVM with no init: it prints its banner and panics at once if KVM works."""
    with tempfile.TemporaryDirectory() as tmp:
        console = Path(tmp) / "console"
        process = subprocess.Popen(
            [QEMU, "-accel", "kvm", "-cpu", "host", "-m", "256", "-kernel", str(kernel.vmlinuz),
             "-append", "console=ttyS0 panic=-1 rdinit=/nonexistent", "-display", "none", "-monitor", "none",
             "-serial", f"file:{console}", "-no-reboot"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + PROBE_S
        try:
            while time.monotonic() < deadline and process.poll() is None:
                if console.exists() and "Linux version" in console.read_text(errors="replace"):
                    return True
                time.sleep(0.2)
            return console.exists() and "Linux version" in console.read_text(errors="replace")
        finally:
            process.kill()
            process.wait()
