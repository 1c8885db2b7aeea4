"""QEMU's machine protocol (QMP) over the unix socket a guest's QEMU listens on: enough of it to
pause a guest, write its state to a file and let it go on."""
import json
import os
import socket
import time
from collections.abc import Callable
from typing import Any, Literal

from ...errors import LabError


class Qmp:
    def __init__(self, path: str | os.PathLike[str], timeout_s: float = 30,
                 alive: Callable[[], bool] | None = None) -> None:
        """alive(): whether the QEMU is still there (one that exited never opens its socket)."""
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(timeout_s)
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                self.sock.connect(str(path))
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if alive is not None and not alive():
                    self.sock.close()
                    raise LabError("guest: QEMU exited before its control socket answered") from None
                if time.monotonic() > deadline:
                    self.sock.close()
                    raise LabError(f"guest: QEMU's control socket {path} did not answer in {timeout_s} s") from None
                time.sleep(0.1)
        self.reader = self.sock.makefile("r")
        self._read()                                   # the greeting
        self.execute("qmp_capabilities")

    def _read(self) -> dict[str, Any]:
        try:
            line = self.reader.readline()
        except ConnectionResetError:        # QEMU exited with the socket's data unread (a load that failed)
            line = ""
        if not line:
            raise LabError("guest: QEMU closed its control socket")
        try:
            return json.loads(line)
        except ValueError:                  # a line cut short by an exiting QEMU
            raise LabError(f"guest: QEMU's control socket said {line[:80]!r}, not JSON") from None

    def _send(self, data: bytes) -> None:
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            raise LabError("guest: QEMU closed its control socket") from None

    def execute(self, command: str, **arguments: Any) -> Any:
        """The command's return value; an error QEMU answers with raises LabError."""
        self._send(json.dumps({"execute": command, "arguments": arguments}).encode() + b"\n")
        while True:
            answer = self._read()
            if "return" in answer:
                return answer["return"]
            if "error" in answer:
                raise LabError(f"guest: QEMU refused {command}: {answer['error'].get('desc')}")
            # anything else is an asynchronous event (STOP, RESUME, MIGRATION ...): not our answer

    def close(self) -> None:
        self.reader.close()
        self.sock.close()

    def __enter__(self) -> "Qmp":
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False
