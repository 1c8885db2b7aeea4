"""Talking to the guest: ssh with the disk's own key and pinned host key, one shared
connection for commands, and the guest's Docker socket forwarded to a local socket."""
import os
import signal
import subprocess
import time
from pathlib import Path

from ...errors import LabError
from .disk import HOST_ALIAS, GuestDisk


class Ssh:
    def __init__(self, port: int, disk: GuestDisk, state_dir: Path, forwarder_pid: int | None = None) -> None:
        self.port, self.disk, self.state_dir = port, disk, state_dir
        self.forwarder: subprocess.Popen[bytes] | None = None
        self.forwarder_pid = forwarder_pid

    @property
    def docker_socket(self) -> Path:
        return self.state_dir / "docker.sock"

    @property
    def forward_log(self) -> Path:
        return self.state_dir / "docker-forward.log"

    def _options(self, shared: bool = True) -> list[str]:
        """shared: commands go through one persistent connection (a new one costs a handshake)."""
        options = ["-i", str(self.disk.key), "-p", str(self.port), "-o", "BatchMode=yes",
                   "-o", f"UserKnownHostsFile={self.disk.known_hosts}", "-o", "StrictHostKeyChecking=yes",
                   "-o", f"HostKeyAlias={HOST_ALIAS}", "-o", "ConnectTimeout=10", "-o", "LogLevel=ERROR",
                   "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=6"]
        if shared:
            options += ["-o", f"ControlPath={self.state_dir}/ssh-control", "-o", "ControlMaster=auto",
                        "-o", "ControlPersist=yes"]
        return options

    def argv(self, command: str) -> list[str]:
        """The command line that runs a shell command in the guest (as root)."""
        return ["ssh", *self._options(), "root@127.0.0.1", command]

    def run(self, command: str, timeout: float = 60, check: bool = True,
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """A shell command in the guest (as root)."""
        result = subprocess.run(self.argv(command), input=stdin,
                                capture_output=True, text=True, timeout=timeout)
        if check and result.returncode:
            raise LabError(f"guest: `{command}` exited {result.returncode}: {result.stderr.strip()[-500:]}")
        return result

    def push_directory(self, directory: Path, destination: str, timeout: float = 900) -> None:
        """A directory of this host into the guest (its contents in destination), as one tar stream."""
        tar = subprocess.Popen(["tar", "-C", str(directory), "-cf", "-", "."], stdout=subprocess.PIPE)
        try:
            result = subprocess.run(["ssh", *self._options(), "root@127.0.0.1",
                                     f"mkdir -p {destination} && tar -C {destination} -xf -"],
                                    stdin=tar.stdout, capture_output=True, timeout=timeout)
        finally:
            if tar.stdout is not None:
                tar.stdout.close()
            tar.wait()
        if result.returncode or tar.returncode:
            raise LabError(f"guest: copying {directory} in failed: {result.stderr.decode(errors='replace')[-400:]}")

    def popen(self, command: str) -> subprocess.Popen[str]:
        """A long-lived shell command in the guest, with pipes to its stdin and stdout."""
        return subprocess.Popen(self.argv(command), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def reachable(self) -> bool:
        try:
            return self.run("true", timeout=15, check=False).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def forward_docker(self, timeout_s: float = 60) -> None:
        """Forward the guest's /var/run/docker.sock to docker_socket; returns once it answers."""
        self.docker_socket.unlink(missing_ok=True)
        # Its messages go to a file: a pipe nobody reads would stop the forward once full.
        with open(self.forward_log, "ab") as log:
            self.forwarder = subprocess.Popen(
                ["ssh", *self._options(shared=False), "-N", "-o", "ExitOnForwardFailure=yes", "-o", "StreamLocalBindUnlink=yes",
                 "-L", f"{self.docker_socket}:/var/run/docker.sock", "root@127.0.0.1"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.forwarder.poll() is not None:
                said = self.forward_log.read_text(errors="replace")[-300:]
                raise LabError(f"guest: forwarding the Docker socket failed: {said}")
            if self.docker_socket.exists():
                return
            time.sleep(0.1)
        raise LabError("guest: the Docker socket forward did not come up")

    def close(self) -> None:
        if self.forwarder is not None and self.forwarder.poll() is None:
            self.forwarder.terminate()
            try:
                self.forwarder.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.forwarder.kill()
        elif self.forwarder is None and self.forwarder_pid:
            try:
                os.kill(self.forwarder_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        subprocess.run(["ssh", *self._options(), "-O", "exit", "root@127.0.0.1"], capture_output=True, timeout=10)
        self.docker_socket.unlink(missing_ok=True)
