"""A QEMU that exits with a command unanswered (a saved guest whose memory does not load) may reset
its control socket rather than close it: the reader says the socket closed (LabError), as for an
orderly close, so the engine boots the guest instead (tests/guest/test_saved_guest.py, real QEMU)."""
import json
import socket
import threading
import time

import pytest

from harness.errors import LabError
from harness.lab.guest.qmp import Qmp


def serve_then_reset(path):
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)

    def run():
        conn, _ = server.accept()
        conn.sendall(json.dumps({"QMP": {"version": {}}}).encode() + b"\n")
        conn.recv(4096)                                     # qmp_capabilities
        conn.sendall(b'{"return": {}}\n')
        time.sleep(0.5)                                     # query-status arrives, never read nor answered:
        conn.close()                                        # closed with it unread, the peer's read is reset
        server.close()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_reset_control_socket_is_a_closed_one(tmp_path):
    thread = serve_then_reset(tmp_path / "qmp.sock")
    qmp = Qmp(tmp_path / "qmp.sock", timeout_s=10)
    with pytest.raises(LabError, match="QEMU closed its control socket"):
        qmp.execute("query-status")
    qmp.close()
    thread.join(timeout=10)
