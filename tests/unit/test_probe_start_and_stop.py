"""The probe (images/client/probe.py) run on this host against a local HTTP server: it waits
quietly for a server that is still starting, and ends when its stdin is closed. The samplers
(load/sampling.py) end on a closed stdin too: that is how a run stops them without an exec. A
group runs a container's probes from one process, each with its own socket options."""
import http.server
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from harness.lab import REPO
from harness.load import probe, sampling

PROBE = REPO / "images" / "client" / "probe.py"


class Answer(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = b"local\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_until(process, done, lines=(), timeout_s=20):
    """The lines a process writes, read until done(lines) holds or timeout_s passes. The tests wait
    for what a process says, not for fixed sleeps a loaded machine outlasts."""
    lines, deadline = list(lines), time.monotonic() + timeout_s
    while not done(lines) and select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))[0]:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
    return lines


def test_until_its_first_answer_a_refused_connect_is_waiting_not_a_failed_operation():
    port = free_port()
    probe = subprocess.Popen([sys.executable, str(PROBE), "--proto", "http", "--host", "127.0.0.1", "--port", str(port),
                              "--interval-ms", "50", "--duration-s", "30", "--first-connect-s", "20", "--stop-on-eof"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    # Refused meanwhile: nothing listens until the probe has said so.
    lines = read_until(probe, lambda lines: lines)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        lines = read_until(probe, lambda lines: '"t1"' in lines[-1], lines)
        probe.stdin.close()               # how a run stops it
        out = "".join(lines) + probe.stdout.read()
        probe.wait(timeout=20)
    finally:
        probe.kill()
        server.shutdown()
    records = [json.loads(line) for line in out.splitlines()]
    waiting = [r for r in records if "waiting" in r]
    operations = [r for r in records if "t1" in r]
    assert waiting and {r["error"] for r in waiting} == {"ECONNREFUSED"}
    assert operations and all(op["ok"] and op["conn"] == 1 for op in operations)
    assert max(r["waiting"] for r in waiting) < operations[0]["t0"]
    assert probe.returncode == 0          # it ended by itself, well before --duration-s


def test_after_its_first_answer_a_refused_connect_is_a_failed_operation():
    port = free_port()
    result = subprocess.run([sys.executable, str(PROBE), "--proto", "http", "--host", "127.0.0.1", "--port", str(port),
                             "--interval-ms", "20", "--duration-s", "30", "--first-connect-s", "0",
                             "--max-operations", "3"], capture_output=True, text=True, timeout=30)
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["error"] for r in records] == ["ECONNREFUSED"] * 3 and not any("waiting" in r for r in records)


def test_a_sampler_ends_when_its_stdin_closes_and_not_before():
    samples = 400
    script = sampling.every(0.05, samples * 0.05, "true", "test-sampler")
    # a pipe whose writing end is closed before the sampler starts: its first read meets EOF however
    # late this process gets to run (input="" closes the pipe only once communicate() runs)
    read_end, write_end = os.pipe()
    os.close(write_end)
    with os.fdopen(read_end) as stdin:
        closed = subprocess.run(script, stdin=stdin, capture_output=True, text=True, timeout=30)
    assert closed.returncode == 0 and closed.stdout.count("@ ") == 1
    sampler = subprocess.Popen(script, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lines = read_until(sampler, lambda lines: sum(line.startswith("@ ") for line in lines) >= 2)
    assert sampler.poll() is None         # an open stdin, nobody writing: it goes on sampling
    sampler.stdin.close()
    out = "".join(lines) + sampler.stdout.read()
    sampler.wait(timeout=30)
    assert 1 < out.count("@ ") < samples


def test_a_sampler_asked_to_sample_once_more_when_its_stdin_closes():
    read_end, write_end = os.pipe()
    os.close(write_end)
    with os.fdopen(read_end) as stdin:
        script = sampling.every(5.0, 60.0, "echo sampled", "test-sampler", once_more_at_stop=True)
        closed = subprocess.run(script, stdin=stdin, capture_output=True, text=True, timeout=30)
    assert closed.returncode == 0 and closed.stdout.count("@ ") == 2 and closed.stdout.count("sampled") == 2
    stamps = [float(line[2:]) for line in closed.stdout.splitlines() if line.startswith("@ ")]
    assert stamps[1] - stamps[0] < 5.0           # at the stop, not an interval later


def test_a_group_runs_each_cells_probe_with_its_own_socket_options_and_ends_on_a_closed_stdin(tmp_path):
    compiler = shutil.which("cc")
    if compiler is None:
        pytest.skip("no C compiler on this host to build libsockopts for the group's forks")
    library = tmp_path / "libsockopts.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(library),
                    str(REPO / "images" / "client" / "preload" / "libsockopts.c"), "-ldl"], check=True)
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    argv = ["--proto", "http", "--host", "127.0.0.1", "--port", str(port), "--interval-ms", "50",
            "--duration-s", "30", "--first-connect-s", "10", "--stop-on-eof"]
    timeouts = {"a": 1000, "b": 2000, "c": None}
    spec = [{"cell": cell, "env": {"SOCKOPT_TCP_USER_TIMEOUT_MS": str(ms)} if ms else {}, "argv": argv}
            for cell, ms in timeouts.items()]
    group = subprocess.Popen([sys.executable, str(PROBE), "--group"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, env={**os.environ, "LD_PRELOAD": str(library)})
    try:
        group.stdin.write(probe.group_input(spec))
        group.stdin.flush()
        lines = read_until(group, lambda lines: {probe.demultiplex(line)[0] for line in lines if '"t1"' in line}
                           == set(timeouts))          # until every cell has had an operation
        group.stdin.close()
        out = "".join(lines) + group.stdout.read()
        group.wait(timeout=20)
    finally:
        group.kill()
        server.shutdown()
    by_cell = {}
    for line in out.splitlines():
        cell, text = probe.demultiplex(line)
        by_cell.setdefault(cell, []).append(json.loads(text))
    assert set(by_cell) == set(timeouts) and group.returncode == 0
    for cell, ms in timeouts.items():
        connected = [r for r in by_cell[cell] if "connected" in r]
        assert len(connected) == 1 and connected[0]["sockopts"]["tcp_user_timeout_ms"] == (ms or 0)
        assert [r["ok"] for r in by_cell[cell] if "t1" in r] and all(r["ok"] for r in by_cell[cell] if "t1" in r)


def ignoring_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# A job started in the background (make test under nohup ... &) inherits SIGINT ignored; the group's
# probes must still stop on the group's SIGINT (they hung until their 60 s were up).
@pytest.mark.parametrize("inherited", [None, ignoring_sigint], ids=["sigint-default", "sigint-ignored"])
def test_a_probe_that_fails_stops_its_group_which_exits_with_its_status_and_says_why(inherited):
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    argv = ["--proto", "http", "--host", "127.0.0.1", "--port", str(port), "--interval-ms", "50",
            "--duration-s", "60", "--stop-on-eof"]
    spec = [{"cell": "fine", "env": {}, "argv": argv},
            {"cell": "lost", "env": {}, "argv": argv, "netns": "/nonexistent/netns"}]
    group = subprocess.Popen([sys.executable, str(PROBE), "--group"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, preexec_fn=inherited)
    try:
        group.stdin.write(probe.group_input(spec))
        group.stdin.flush()
        # the healthy probe is stopped by the group, long before its 60 s are up
        group.wait(timeout=30)
        stderr = group.stderr.read()
    finally:
        group.kill()
        server.shutdown()
    assert group.returncode == 2
    assert "probe lost" in stderr and "/nonexistent/netns" in stderr


def test_the_ss_sampler_tags_each_namespaces_block_and_stamps_it():
    if shutil.which("ss") is None:
        pytest.skip("no ss on this host")
    port = free_port()
    listener = socket.create_server(("127.0.0.1", port))
    client = socket.create_connection(("127.0.0.1", port))
    from harness.signals.retransmissions import ss_sampler
    try:
        sampler = subprocess.run(ss_sampler.group_command("127.0.0.1", 0.1, [("one", None), ("two", None)]),
                                 input="", capture_output=True, text=True, timeout=30)
    finally:
        client.close()
        listener.close()
    lines = [probe.demultiplex(line) for line in sampler.stdout.splitlines()]
    assert all(lines) and {tag for tag, _ in lines} == {"one", "two"}
    for tag in ("one", "two"):
        texts = [text for t, text in lines if t == tag]
        assert texts[0].startswith("@ ") and float(texts[0][2:]) > 1e9
        # the connection's own line, and ss's detail line (it starts with a tab) under it
        assert any(f"127.0.0.1:{port}" in text for text in texts) and any(text.startswith("\t") for text in texts)
