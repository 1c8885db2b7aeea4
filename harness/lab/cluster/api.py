"""The API server's REST face, as much of it as the lab needs: JSON in, JSON out, the cluster's
own certificate checked (assets.py makes it for 127.0.0.1)."""
import base64
import json
import os
import ssl
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ... import polling
from ...errors import LabError

GET_TRIES = 3


class ApiError(LabError):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"cluster: the API server answered {status}: {text[:300]}")
        self.status = status


class KubeApi:
    def __init__(self, server: str, token: str, cafile: str | os.PathLike[str]) -> None:
        self.server, self.token = server.rstrip("/"), token
        self.context = ssl.create_default_context(cafile=str(cafile))

    @classmethod
    def from_kubeconfig(cls, path: str | os.PathLike[str]) -> "KubeApi":
        """The current context's cluster and user of a kubeconfig file (JSON, or YAML as kubectl
        writes it): a bearer token and the cluster's CA, as a file or inline data."""
        import yaml
        path = Path(path)
        try:
            config = yaml.safe_load(path.read_text())
        except (OSError, yaml.YAMLError) as exc:
            raise LabError(f"cluster: cannot read the kubeconfig {path}: {exc}") from None
        try:
            context = _named(config["contexts"], config["current-context"])["context"]
            cluster = _named(config["clusters"], context["cluster"])["cluster"]
            user = _named(config["users"], context["user"])["user"]
        except (KeyError, TypeError, StopIteration):
            raise LabError(f"cluster: {path} has no usable current context (current-context, contexts, clusters, "
                           "users)") from None
        if "token" not in user:
            raise LabError(f"cluster: {path}: the lab speaks to a cluster with a bearer token; the user of its "
                           "current context has none (client certificates and exec plugins are not supported)")
        cafile = cluster.get("certificate-authority")
        if cafile is None and "certificate-authority-data" in cluster:
            cafile = path.parent / f".{path.name}.ca.crt"
            cafile.write_bytes(base64.b64decode(cluster["certificate-authority-data"]))
        if cafile is None:
            raise LabError(f"cluster: {path}: the cluster has no certificate-authority to check its server with")
        return cls(cluster["server"], user["token"], (path.parent / cafile) if not Path(cafile).is_absolute() else cafile)

    def request(self, path: str, method: str = "GET", body: Any = None, timeout: float = 15,
            content_type: str = "application/json") -> str:
        """The answer's text; ApiError for an HTTP error, OSError when nothing answers."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.server}{path}", method=method, data=data, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": content_type, "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, context=self.context, timeout=timeout) as answer:
                return answer.read().decode()
        except urllib.error.HTTPError as exc:
            raise ApiError(exc.code, exc.read().decode(errors="replace")) from None

    def get(self, path: str, timeout: float = 15) -> Any:
        """A GET changes nothing, so one that times out is asked again, up to GET_TRIES times: right
        after cluster-up, a GET to an API server on an emulated CPU once went unanswered for 15 s
        and failed a run that the same GET a moment later would have let go on."""
        for attempt in range(1, GET_TRIES + 1):
            try:
                return json.loads(self.request(path, timeout=timeout))
            except (TimeoutError, urllib.error.URLError) as exc:
                if attempt == GET_TRIES or not _timed_out(exc):
                    raise

    def create(self, path: str, body: Mapping[str, Any]) -> Any:
        return json.loads(self.request(path, "POST", body))

    def gone(self, path: str) -> bool:
        """Whether the object at path is gone (its GET answers 404)."""
        try:
            self.get(path)
        except ApiError as exc:
            return exc.status == 404
        return False

    def create_unless_there(self, path: str, body: Mapping[str, Any]) -> None:
        """Create it; one already there (409) is left as it is."""
        try:
            self.create(path, body)
        except ApiError as exc:
            if exc.status != 409:
                raise

    def patch(self, path: str, body: Mapping[str, Any]) -> Any:
        """A strategic merge patch (lists of conditions merge by their type)."""
        return json.loads(self.request(path, "PATCH", body, content_type="application/strategic-merge-patch+json"))

    def delete(self, path: str, grace_period_s: float | None = None) -> Any:
        query = "" if grace_period_s is None else f"?gracePeriodSeconds={grace_period_s}"
        return json.loads(self.request(f"{path}{query}", "DELETE"))

    def ready(self) -> bool:
        """/readyz says ok (False while it starts, or while nothing listens yet)."""
        try:
            return self.request("/readyz", timeout=5) == "ok"
        except (OSError, ApiError):
            return False


def _timed_out(exc: BaseException) -> bool:
    return isinstance(exc, TimeoutError) or isinstance(getattr(exc, "reason", None), TimeoutError)


def _named(entries: Iterable[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(entry for entry in entries if entry["name"] == name)


def wait_for(what: str, ready: Callable[[], Any], timeout_s: float, alive: Callable[[], str | None] = lambda: None,
             poll_s: float = 2.0) -> float:
    """Seconds until ready() is true (exceptions count as not yet); LabError after timeout_s, or
    as soon as alive() names what died."""
    try:
        return polling.wait_for(what, ready, timeout_s, poll_s=poll_s, gone=alive,
                                not_yet=(OSError, LabError, ValueError, KeyError))
    except LabError as exc:
        raise LabError(f"cluster: {exc}") from None


def node_ready(node: Mapping[str, Any]) -> bool:
    return any(c["type"] == "Ready" and c["status"] == "True" for c in node.get("status", {}).get("conditions", []))
