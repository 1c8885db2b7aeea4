"""A few calls to a Docker engine's own API over its unix socket, where a CLI process per call
costs more than the call itself (a lab's teardown makes a score of them, on a busy machine)."""
import http.client
import json
import socket
import subprocess
import urllib.parse
from typing import Any

DEFAULT_SOCKET = "/var/run/docker.sock"


class EngineApiError(Exception):
    pass


def socket_path(docker_host: str | None) -> str | None:
    """The unix socket a docker_host ('unix:///path'; None: the one the docker client uses, its
    DOCKER_HOST or context) names, or None when the engine is reached some other way."""
    host = docker_host or clients_endpoint()
    return host[len("unix://"):] if host.startswith("unix://") else None


def clients_endpoint() -> str:
    """Where the docker client sends its calls (DOCKER_HOST, DOCKER_CONTEXT or its current context)."""
    try:
        shown = subprocess.run(["docker", "context", "inspect", "--format", "{{.Endpoints.docker.Host}}"],
                               capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return f"unix://{DEFAULT_SOCKET}"
    return shown.stdout.strip() if shown.returncode == 0 and shown.stdout.strip() else f"unix://{DEFAULT_SOCKET}"


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout_s: float) -> None:
        super().__init__("localhost", timeout=timeout_s)
        self._path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self._path)


def call(path: str, method: str, url: str, body: Any = None, timeout_s: float = 20.0) -> tuple[int, Any]:
    """(status, decoded JSON or None) of one request; EngineApiError when the socket does not answer."""
    connection = _UnixConnection(path, timeout_s)
    try:
        connection.request(method, url, body=None if body is None else json.dumps(body),
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
    except OSError as exc:
        raise EngineApiError(f"{method} {url} on {path}: {exc}") from None
    finally:
        connection.close()
    return response.status, (json.loads(data) if data and data.lstrip()[:1] in (b"{", b"[") else None)


def labelled_networks(path: str, label: str) -> list[tuple[str, str, dict[str, str]]]:
    """[(id, name, {container id: name})] of the networks carrying label ('key=value')."""
    filters = urllib.parse.quote(json.dumps({"label": [label]}))
    status, listed = call(path, "GET", f"/networks?filters={filters}")
    if status != 200:
        raise EngineApiError(f"listing networks: HTTP {status}")
    found = []
    for network in listed or []:
        status, detail = call(path, "GET", f"/networks/{network['Id']}")
        if status == 200:
            containers = {cid: c.get("Name", cid) for cid, c in (detail.get("Containers") or {}).items()}
            found.append((network["Id"], network["Name"], containers))
    return found


def disconnect(path: str, network_id: str, container_id: str) -> bool:
    """Take one container off one network by force; whether the engine did."""
    status, _ = call(path, "POST", f"/networks/{network_id}/disconnect", {"Container": container_id, "Force": True})
    return status == 200
