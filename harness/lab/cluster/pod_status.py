"""A pod as the lab needs to know it, read from the API server's answer (pure)."""
from collections.abc import Mapping
from typing import Any


def summary(pod: Mapping[str, Any]) -> dict[str, Any]:
    """{ip, phase, ready, started, id, state, restarts, image} of a pod with one container: its
    address, phase and Ready condition; its container's id (without the runtime's prefix), state
    ({'running': ...}, {'waiting': ...}, {'terminated': ...}), restart count and image."""
    status = pod.get("status", {})
    [container] = status.get("containerStatuses") or [{}]
    conditions = {c["type"]: c["status"] == "True" for c in status.get("conditions") or ()}
    return {"ip": status.get("podIP"), "phase": status.get("phase"), "ready": conditions.get("Ready", False),
            "started": bool(container.get("started")), "id": container.get("containerID", "").split("://")[-1],
            "state": container.get("state", {}), "restarts": container.get("restartCount", 0),
            "image": container.get("imageID") or container.get("image")}


def running(pod_summary: Mapping[str, Any]) -> bool:
    return pod_summary.get("phase") == "Running" and "running" in pod_summary.get("state", {})
