"""The API server's REST face, as much of it as the lab needs: JSON in, JSON out, the cluster's
own certificate checked (assets.py makes it for 127.0.0.1)."""
import json
import ssl
import time
import urllib.error
import urllib.request

from ...errors import LabError


class ApiError(LabError):
    def __init__(self, status, text):
        super().__init__(f"cluster: the API server answered {status}: {text[:300]}")
        self.status = status


class KubeApi:
    def __init__(self, server, token, cafile):
        self.server, self.token = server.rstrip("/"), token
        self.context = ssl.create_default_context(cafile=str(cafile))

    def request(self, path, method="GET", body=None, timeout=15):
        """The answer's text; ApiError for an HTTP error, OSError when nothing answers."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.server}{path}", method=method, data=data, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, context=self.context, timeout=timeout) as answer:
                return answer.read().decode()
        except urllib.error.HTTPError as exc:
            raise ApiError(exc.code, exc.read().decode(errors="replace")) from None

    def get(self, path):
        return json.loads(self.request(path))

    def create(self, path, body):
        return json.loads(self.request(path, "POST", body))

    def ready(self):
        """/readyz says ok (False while it starts, or while nothing listens yet)."""
        try:
            return self.request("/readyz", timeout=5) == "ok"
        except (OSError, ApiError):
            return False


def wait_for(what, ready, timeout_s, alive=lambda: None, poll_s=2.0):
    """Seconds until ready() is true (exceptions count as not yet); LabError after timeout_s, or
    as soon as alive() names what died."""
    started = time.monotonic()
    last = None
    while time.monotonic() - started < timeout_s:
        dead = alive()
        if dead:
            raise LabError(f"cluster: {dead} while waiting for {what}")
        try:
            if ready():
                return round(time.monotonic() - started, 1)
        except (OSError, LabError, ValueError, KeyError) as exc:
            last = exc
        time.sleep(poll_s)
    raise LabError(f"cluster: gave up waiting {timeout_s} s for {what}" + (f" (last: {last})" if last else ""))


def node_ready(node):
    return any(c["type"] == "Ready" and c["status"] == "True" for c in node.get("status", {}).get("conditions", []))
