"""The lab's programs as Kubernetes objects: the manifests the API server is given (pure).

A cell becomes a pod of the lab's client image running the lab's probe alone (no group: one pod
per cell). Its TCP sysctls are the pod's `securityContext.sysctls`, which the node must allow
(allows.py). Its socket options come from the lab's preloaded libsockopts, as on the other places
the lab runs. Nothing is pulled: every image is already on the node (`imagePullPolicy: Never`)."""
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from ...load import probe
from ...load.specs import LoadedCell


class ProbedCell(LoadedCell, Protocol):
    """A cell as its pod is made (scenario/model.py's Cell gives it)."""

    def kernel_sysctls(self) -> tuple[tuple[str, Any], ...]: ...

CLIENT_IMAGE = "blackhole-lab/client:dev"
WEB_IMAGE = "blackhole-lab/web:dev"
LAB_LABEL = "blackhole-lab/lab"         # on a lab's namespace
OWNER = "blackhole-lab/owner"           # its annotation: who made it (leftovers.py)


def lab_namespace(name: str, owner: str) -> dict[str, Any]:
    """owner: who made it (leftovers.owner_here()), for `make clean` to tell a dead run's lab."""
    return {"apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": name, "labels": {LAB_LABEL: "1"}, "annotations": {OWNER: owner}}}


# A pod with this readiness gate is ready only while the lab says so (serving()): its readiness
# turned off is a fault, deterministic where a failing readiness probe is not (under TCG a
# 1 s probe of a healthy nginx timed out now and then, and kube-proxy reset its flows).
SERVING = "blackhole-lab/serving"


def pod(name: str, image: str, command: Iterable[str] | None = None, sysctls: Mapping[str, Any] | None = None,
        labels: Mapping[str, str] | None = None, env: Mapping[str, Any] | None = None,
        gated: bool = False) -> dict[str, Any]:
    """gated: ready only once serving(True) is patched into its status."""
    container: dict[str, Any] = {"name": name, "image": image, "imagePullPolicy": "Never"}
    if command:
        container["command"] = list(command)
    if env:
        container["env"] = [{"name": k, "value": str(v)} for k, v in env.items()]
    spec: dict[str, Any] = {"containers": [container], "restartPolicy": "Never", "terminationGracePeriodSeconds": 1}
    if gated:
        spec["readinessGates"] = [{"conditionType": SERVING}]
    if sysctls:
        spec["securityContext"] = {"sysctls": [{"name": k, "value": str(v)} for k, v in sysctls.items()]}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": dict(labels or {})}, "spec": spec}


def serving(ready: bool, at: str) -> dict[str, Any]:
    """The status patch (strategic merge, on pods/<name>/status) that turns a gated pod's
    readiness on or off; at: its time, RFC 3339."""
    return {"status": {"conditions": [{"type": SERVING, "status": "True" if ready else "False",
                                       "lastTransitionTime": at, "reason": "BlackholeLab"}]}}


def service(name: str, selector: Mapping[str, str], port: int) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
            "spec": {"selector": dict(selector), "ports": [{"port": port, "targetPort": port}]}}


def probe_pod(name: str, cell: ProbedCell, proto: str, host: str, interval_ms: float,
              duration_s: float) -> dict[str, Any]:
    """A cell's pod: the probe against host (a Service's ClusterIP) for duration_s, one JSON line
    per operation in the pod's log."""
    env = {"LD_PRELOAD": probe.SOCKOPTS_LIBRARY, **cell.socket_env()}
    return pod(name, CLIENT_IMAGE, ["probe", *probe.cell_argv(proto, interval_ms, cell, host, duration_s)],
               sysctls=dict(cell.kernel_sysctls()), labels={"blackhole-lab/cell": cell.name}, env=env)


def vip_service(name: str, selector: Mapping[str, str], ports: Mapping[str, int]) -> dict[str, Any]:
    """One Service whose ClusterIP is the lab's VIP for every port in ports ({port name: number}):
    each port targets the pods' container port of that name, so a port's endpoints are only the
    selected pods that declare it (the mysql servers for 3306, the web servers for 80), as the
    director's one VIP has a table per port."""
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
            "spec": {"selector": dict(selector),
                     "ports": [{"name": n, "port": p, "targetPort": n} for n, p in sorted(ports.items())]}}
