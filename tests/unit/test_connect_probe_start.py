"""The connection-setup prober started before its server listens: the connects refused until the
server's first accept are not recorded, and its clock starts then (images/client/connect_probe.py,
run here on loopback)."""
import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

PROBER = Path(__file__).resolve().parents[2] / "images" / "client" / "connect_probe.py"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_connects_refused_before_the_server_first_listens_are_not_recorded():
    port = free_port()
    prober = subprocess.Popen([sys.executable, str(PROBER), "127.0.0.1", str(port), "20", "30", "1"],
                              stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(1.0)                          # ~5 tries refused
        listening_at = time.time()
        with socket.create_server(("127.0.0.1", port), backlog=128):
            time.sleep(1.0)
            prober.send_signal(signal.SIGINT)
            output, _ = prober.communicate(timeout=10)
    finally:
        prober.kill()
    records = [json.loads(line) for line in output.splitlines()]
    connects, end = records[:-1], records[-1]
    assert connects and "end" in end
    assert all("err" not in c for c in connects), [c for c in connects if "err" in c][:3]
    assert min(c["t0"] for c in connects) >= listening_at
    assert end["sent"] == len(connects)
