"""What of a guest's machinery broke under a lab: QEMU, the ssh tunnel to its Docker socket, its dockerd."""
import subprocess


def what_broke(engine):
    """What of the guest's machinery broke under a lab, in one line, or None: QEMU gone, the
    ssh tunnel to its Docker socket closed, or its dockerd not running."""
    if engine.vm is None:
        return None
    if not engine.vm.alive():
        code = engine.vm.process.poll() if engine.vm.process is not None else None
        return f"the guest's QEMU is gone (exit status {code})" if code is not None else "the guest's QEMU is gone"
    forwarder = engine.ssh.forwarder if engine.ssh is not None else None
    if forwarder is not None and forwarder.poll() is not None:
        return f"the ssh tunnel to the guest's Docker engine closed (ssh exit status {forwarder.returncode})"
    try:
        dockerd = engine.ssh.run("if ! pgrep -x dockerd >/dev/null; then echo gone; "
                                 "elif ! timeout 10 docker version >/dev/null 2>&1; then echo mute; fi",
                                 timeout=30, check=False).stdout.strip()
    except subprocess.TimeoutExpired:
        return "the guest does not answer ssh within 30 s"
    return {"gone": "the guest's dockerd is not running",
            "mute": "the guest's dockerd does not answer (stopping, or hung)"}.get(dockerd)
