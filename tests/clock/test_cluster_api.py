"""The cluster's API client asks a GET again when it times out, and nothing else again."""
import http.server
import json
import threading
import time

import pytest

from harness.lab.cluster import api


class SlowFirstAnswers(http.server.BaseHTTPRequestHandler):
    """Answers {"n": <request number>}; the first `slow` requests only after 1 s."""
    slow = 1
    seen = []

    def _answer(self):
        self.seen.append(self.command)
        if len(self.seen) <= self.slow:
            time.sleep(1.0)
        body = json.dumps({"n": len(self.seen)}).encode()
        try:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass                   # the client gave up on a slow answer: what the tests make happen

    do_GET = do_DELETE = _answer

    def log_message(self, *args):
        pass


@pytest.fixture
def server(ca_file):
    SlowFirstAnswers.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SlowFirstAnswers)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield api.KubeApi(f"http://127.0.0.1:{httpd.server_address[1]}", "token", ca_file)    # plain http: never used
    httpd.shutdown()


def test_a_get_that_times_out_is_asked_again(server):
    assert server.get("/api/v1/pods", timeout=0.3) == {"n": 2}
    assert SlowFirstAnswers.seen == ["GET", "GET"]


def test_a_get_that_never_answers_in_time_fails_after_its_tries(server):
    SlowFirstAnswers.slow = api.GET_TRIES
    try:
        with pytest.raises((TimeoutError, OSError)):
            server.get("/api/v1/pods", timeout=0.3)
    finally:
        SlowFirstAnswers.slow = 1
    assert SlowFirstAnswers.seen == ["GET"] * api.GET_TRIES


def test_a_delete_that_times_out_is_not_sent_again(server):
    with pytest.raises((TimeoutError, OSError)):
        server.request("/api/v1/pods/x", "DELETE", timeout=0.3)
    time.sleep(1.2)
    assert SlowFirstAnswers.seen == ["DELETE"]


class Answers(http.server.BaseHTTPRequestHandler):
    """POST answers with the status its path names (/409, /500)."""
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        body = b'{"kind": "Status"}'
        self.send_response(int(self.path.strip("/")))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_creating_what_is_already_there_is_no_error_and_anything_else_refused_is(ca_file):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answers)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        client = api.KubeApi(f"http://127.0.0.1:{httpd.server_address[1]}", "token", ca_file)
        client.create_unless_there("/409", {})
        with pytest.raises(api.ApiError) as refused:
            client.create_unless_there("/500", {})
        assert refused.value.status == 500
    finally:
        httpd.shutdown()
