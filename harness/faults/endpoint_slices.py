"""The EndpointSlice writes the Kubernetes faults make (endpoint_not_ready, endpoint_removed,
node_lost), through kube-endpoints in the kube-proxy control plane's API container
(harness/control/kube_proxy.py): the harness plays Kubernetes' endpoint controller."""
import json

from ..measure.effects import Landing
from ..control.kube_proxy import API_SERVICE
from ..errors import LabError
from ..topology import SERVICE_SERVERS, SERVERS
from .base import Fault, Param

NONE = "none"
REPLACEMENTS = (NONE,) + SERVERS
NOT_READY = "ready=0,serving=0,terminating=0"        # a pod whose readiness probe fails, or on a lost node
TERMINATING = "ready=0,serving=1,terminating=1"      # a pod being deleted, in its grace period


def service_of(server):
    return next(service for service, servers in SERVICE_SERVERS.items() if server in servers)


class EndpointFault(Fault):
    """A fault that writes its target's service's EndpointSlice; a replacement's endpoint turns
    ready in the same write, if one is named."""

    @staticmethod
    def target_params(target_help, **more):
        return {"target": Param("server", help=target_help),
                "replacement": Param("choice", NONE, REPLACEMENTS, "a server of the same service whose endpoint "
                                                                  "turns ready"),
                **more}

    @classmethod
    def problem(cls, params):
        return problem(params)

    def needs_services(self):
        return {API_SERVICE: "the Kubernetes API server `control: kube-proxy` adds (LAB=kubernetes: the cluster's own)"}

    def replacement(self):
        """The replacement server, or None."""
        return None if self.p["replacement"] == NONE else self.p["replacement"]


def problem(params):
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


def endpoints(lab, target, target_conditions, replacement):
    """kube-endpoints' arguments: the target with its conditions (None: removed), the
    replacement ready."""
    found = []
    if target_conditions is not None:
        found.append(f"{lab.address(target, 'back')}:{target_conditions}")
    if replacement != NONE:
        found.append(f"{lab.address(replacement, 'back')}:ready=1")
    return found


def write(lab, target, target_conditions, replacement, at=None):
    """Write the target's service's slice now (a Landing: the API server took it
    between the two), or at unix time `at` from the container itself (None returned)."""
    if API_SERVICE not in lab.services():
        raise LabError(f"this fault writes Kubernetes EndpointSlices: it needs `control: kube-proxy` "
                       f"(no {API_SERVICE} container in this lab)")
    command = ["kube-endpoints", "write", *(["--at", f"{at:.6f}"] if at is not None else []),
               service_of(target), *endpoints(lab, target, target_conditions, replacement)]
    answer = json.loads(lab.exec(API_SERVICE, command).stdout.strip().splitlines()[-1])
    if at is not None:
        return None
    return Landing(answer["applying_t"], round(answer["applied_t"] - answer["applying_t"], 6))
