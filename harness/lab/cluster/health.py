"""How a cluster lab's pods are doing, read from the API server: ready for a run to start
(wait_healthy), and what went wrong during one (problems)."""
import subprocess
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ...errors import LabError
from ...topology import DIRECTOR
from . import pod_status
from .api import ApiError, wait_for
from .making import API_POLL_S

if TYPE_CHECKING:
    from .lab import ClusterLab


def wait_healthy(lab: "ClusterLab", timeout_s: float, only: Iterable[str] | None = None,
                 stopping: threading.Event | None = None) -> None:
    """Until each pod (only: of these services) is ready: a server once its health check first
    passed and the lab's gate is on, a cell once its container runs; a LabError at the next poll
    once stopping (an Event) is set."""
    wanted = [s for s in (only or lab.pod_services()) if s != DIRECTOR]

    def healthy() -> bool:
        not_yet = []
        for service in wanted:
            pod = lab.read_pod(service)
            if not pod:
                raise LabError(f"not healthy: {service} (its pod is gone)")
            if pod["phase"] in ("Failed", "Succeeded"):
                raise LabError(f"not healthy: {service} (pod {pod['phase']}: {why(lab, service)})")
            if not (pod["ready"] if service in lab.servers else pod["started"]):
                not_yet.append(service)
        return not not_yet
    wait_for("the lab's pods to be ready", healthy, timeout_s, poll_s=API_POLL_S,
             alive=lambda: "the run is ending" if stopping is not None and stopping.is_set() else None)


def why(lab: "ClusterLab", service: str) -> str:
    """The pod's own last events, in one line."""
    try:
        events = lab.api.get(lab.path("events") + f"?fieldSelector=involvedObject.name%3D{service}")["items"]
    except (ApiError, OSError):
        return "no events"
    return "; ".join(f"{e.get('reason')}: {e.get('message', '')[:160]}" for e in events[-3:]) or "no events"


def problems(lab: "ClusterLab") -> dict[str, str]:
    """{service: what is wrong} for each pod that is gone, not running, or was restarted by the
    kubelet rather than by the lab; and kube-proxy (the director) not running."""
    found = {}
    try:
        for service in lab.pod_services():
            pod = lab.read_pod(service)
            if not pod:
                found[service] = f"{service}: its pod is gone"
            elif not pod_status.running(pod):
                found[service] = f"{service}: pod {pod['phase']}, container {', '.join(pod['state']) or 'none'}"
            elif pod["restarts"] > lab.restarts_asked.get(service, 0):
                found[service] = f"{service}: its container was restarted by the kubelet"
        if lab.shell.run("pgrep -x kube-proxy", check=False, timeout=30).returncode:
            found[DIRECTOR] = f"{DIRECTOR}: the node's kube-proxy is not running"
    except (OSError, subprocess.TimeoutExpired, LabError) as exc:
        problem = lab.engine.problem()
        if problem is None and isinstance(exc, subprocess.TimeoutExpired):
            return found        # a slow node's shell (the agent's exec took over 30 s once), answering again
        return {"*": problem or f"the cluster does not answer ({str(exc).strip()[:200]})"}
    return found
