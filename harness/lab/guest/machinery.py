"""What of a guest's machinery broke under a lab: QEMU, the ssh tunnel to its Docker socket, its dockerd."""
import subprocess
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import GuestEngine

SSH_FAILED = 255            # ssh's own exit status: it reached no shell on the guest
QEMU_EXIT_WAIT_S = 3.0      # a killed QEMU of gigabytes takes a moment to be seen gone


def what_broke(engine: "GuestEngine") -> str | None:
    """What of the guest's machinery broke under a lab, in one line, or None: QEMU gone, the
    ssh tunnel to its Docker socket closed, or its dockerd not running."""
    if engine.vm is None:
        return None
    if not engine.vm.alive():
        return _qemu_gone(engine)
    forwarder = engine.ssh.forwarder if engine.ssh is not None else None
    if forwarder is not None and forwarder.poll() is not None:
        # a tunnel lost with its connection (255) may be the first sign of a QEMU still exiting
        # (a CI make test, 2026-12-04: the tunnel's end seen before the killed QEMU's)
        gone = _qemu_gone_soon(engine) if forwarder.returncode == SSH_FAILED else None
        return gone or f"the ssh tunnel to the guest's Docker engine closed (ssh exit status {forwarder.returncode})"
    if engine.ssh is None:
        return "the guest's ssh is not up"
    try:
        said = engine.ssh.run("if ! pgrep -x dockerd >/dev/null; then echo gone; "
                              "elif ! timeout 10 docker version >/dev/null 2>&1; then echo mute; fi",
                              timeout=30, check=False)
    except subprocess.TimeoutExpired:
        return "the guest does not answer ssh within 30 s"
    if said.returncode == SSH_FAILED:       # no shell reached: a QEMU still exiting when first looked at?
        return _qemu_gone_soon(engine) or "the guest does not answer ssh (its QEMU runs)"
    dockerd = said.stdout.strip()
    return {"gone": "the guest's dockerd is not running",
            "mute": "the guest's dockerd does not answer (stopping, or hung)"}.get(dockerd)


def _qemu_gone_soon(engine: "GuestEngine") -> str | None:
    """_qemu_gone()'s line when QEMU is seen gone within QEMU_EXIT_WAIT_S; else None."""
    deadline = time.monotonic() + QEMU_EXIT_WAIT_S
    vm = engine.vm
    while vm is not None and time.monotonic() < deadline:
        if not vm.alive():
            return _qemu_gone(engine)
        time.sleep(0.1)
    return None


def _qemu_gone(engine: "GuestEngine") -> str:
    process = engine.vm.process if engine.vm is not None else None
    code = process.poll() if process is not None else None
    return f"the guest's QEMU is gone (exit status {code})" if code is not None else "the guest's QEMU is gone"
