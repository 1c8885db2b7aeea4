"""The EndpointSlice writes the Kubernetes faults make (endpoint_not_ready, endpoint_removed,
node_lost), through kube-endpoints in the kube-proxy control plane's API container
(harness/control/kube_proxy.py): the harness plays Kubernetes' endpoint controller."""
import json
from typing import Any

from ..control.kube_proxy import API_SERVICE
from ..errors import LabError
from ..topology import SERVICE_SERVERS, SERVERS
from .base import Fault, FaultsLab, Setting

NONE = "none"
REPLACEMENTS = (NONE,) + SERVERS
NOT_READY = "ready=0,serving=0,terminating=0"        # a pod whose readiness probe fails, or on a lost node
TERMINATING = "ready=0,serving=1,terminating=1"      # a pod being deleted, in its grace period


def service_of(server: str) -> str:
    return next(service for service, servers in SERVICE_SERVERS.items() if server in servers)


class EndpointFault(Fault):
    """A fault that writes its target's service's EndpointSlice; a replacement's endpoint turns
    ready in the same write, if one is named."""

    @staticmethod
    def target_params(target_help: str, **more: Setting) -> dict[str, Setting]:
        return {"target": Setting("server", help=target_help),
                "replacement": Setting("str", NONE, choices=REPLACEMENTS, help="a server of the same service whose endpoint "
                                                                  "turns ready"),
                **more}

    @classmethod
    def problem(cls, params: dict[str, Any]) -> str | None:
        return problem(params)

    def needs_services(self) -> dict[str, str]:
        return {API_SERVICE: "the Kubernetes API server `control: kube-proxy` adds (LAB=kubernetes: the cluster's own)"}

    def replacement(self) -> str | None:
        """The replacement server, or None."""
        return None if self.p["replacement"] == NONE else self.p["replacement"]


def problem(params: dict[str, Any]) -> str | None:
    """What is wrong with a target and its replacement taken together, or None."""
    replacement = params.get("replacement", NONE)
    if replacement == NONE:
        return None
    if replacement == params["target"]:
        return f"replacement and target are both {replacement}"
    if service_of(replacement) != service_of(params["target"]):
        return (f"replacement {replacement} does not serve {service_of(params['target'])} "
                f"(its servers: {', '.join(SERVICE_SERVERS[service_of(params['target'])])})")
    return None


def endpoints(lab: FaultsLab, target: str, target_conditions: str | None, replacement: str) -> list[str]:
    """kube-endpoints' arguments: the target with its conditions (None: removed), the
    replacement ready."""
    found = []
    if target_conditions is not None:
        found.append(f"{lab.address(target, 'back')}:{target_conditions}")
    if replacement != NONE:
        found.append(f"{lab.address(replacement, 'back')}:ready=1")
    return found


def write(lab: FaultsLab, target: str, target_conditions: str | None, replacement: str) -> tuple[float, float]:
    """Write the target's service's slice now: (applying_t, applied_t), the API server took it
    between the two (the lab's clock)."""
    answer = _kube_endpoints(lab, target, target_conditions, replacement, [])
    return answer["applying_t"], answer["applied_t"]


def write_at(lab: FaultsLab, target: str, target_conditions: str | None, replacement: str, at: float) -> None:
    """Have the API server's container write the target's service's slice at unix time `at` itself."""
    _kube_endpoints(lab, target, target_conditions, replacement, ["--at", f"{at:.6f}"])


def _kube_endpoints(lab: FaultsLab, target: str, target_conditions: str | None, replacement: str,
                    when: list[str]) -> dict[str, Any]:
    if API_SERVICE not in lab.services():
        raise LabError(f"this fault writes Kubernetes EndpointSlices: it needs `control: kube-proxy` "
                       f"(no {API_SERVICE} container in this lab)")
    command = ["kube-endpoints", "write", *when, service_of(target),
               *endpoints(lab, target, target_conditions, replacement)]
    answer: dict[str, Any] = json.loads(lab.exec(API_SERVICE, command).stdout.strip().splitlines()[-1])
    return answer
