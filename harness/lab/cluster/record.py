"""What a cluster lab records of itself: env.json's description (ClusterLab.describe) and the
evidence kept with a run (keep_evidence): its node's, and the cluster's events."""
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...topology import DIRECTOR

if TYPE_CHECKING:
    from .lab import ClusterLab


def describe(lab: "ClusterLab") -> dict[str, Any]:
    version = lab.api.get("/version")
    images = {service: pod.get("image") for service in lab.pod_services()
              for pod in [lab.read_pod(service)] if pod}
    images[DIRECTOR] = lab.node.kube_proxy_version(lab.shell)
    engine = lab.engine
    return {"kernel": engine.kernel_release(),
            "where": {**engine.describe(), "where": "cluster", "node": lab.node.state()},
            "kernel_facts": {"hz": engine.hz(), "sysctl_defaults": engine.sysctl_defaults()},
            "lab": {"project": lab.project, "namespace": lab.project, "vip": lab.vip_address_known()},
            "images": images, "kubernetes": version.get("gitVersion")}


def keep_evidence(lab: "ClusterLab", directory: Path) -> None:
    lab.engine.collect(directory)
    events = lab.api.request(lab.path("events"), timeout=60)
    (directory / "cluster-events.json").write_text(json.dumps(json.loads(events), indent=1) + "\n")
