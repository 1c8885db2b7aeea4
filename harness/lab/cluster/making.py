"""Making a lab on the cluster (ClusterLab.up): the lab's Compose services resolved for its shape,
the VIP's Service, then the pods wave by wave."""
import functools
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...topology import DIRECTOR, FRONT, PRIMARY, SERVICE_PORTS, SERVICE_SERVERS, VIP_HOST
from ..engine import HostEngine
from ..request import LabRequest
from . import from_compose
from .api import wait_for
from .pods import vip_service

if TYPE_CHECKING:
    from .lab import ClusterLab

# compose.yaml's LB_SERVICES: the server the director starts each service's VIP with
INITIAL_BACKENDS = {"mysql": PRIMARY, "web": "web-a"}
VIP_SERVICE = "vip"
BEHIND_VIP = "blackhole-lab/behind-vip"      # a pod with it is one of the VIP's endpoints
POD_START_S = 900               # created -> running (TCG: 70-80 s for a pod of the lab's images)
API_POLL_S = 1.0


def _address_of(lab: "ClusterLab", service: str) -> str | None:
    return lab.read_pod(service).get("ip")


def rfc3339_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def rendered_services(lab: "ClusterLab") -> dict[str, Any]:
    """Each service's definition as Compose resolves it for a lab of this shape (no engine asked)."""
    from ..compose import ComposeLab
    shape = ComposeLab(LabRequest(project=lab.project, cells=lab.cells, servers=lab.servers, database=lab.database,
                                  workdir=lab.workdir, datapath="nftables", env=lab.user_env), engine=HostEngine())
    return shape.docker.compose.config(return_json=True)["services"]


def make(lab: "ClusterLab", definitions: Mapping[str, Mapping[str, Any]]) -> str:
    """The VIP's Service first (its ClusterIP is the address the clients are told), then the pods
    wave by wave, each after those its addresses name; a server is behind the VIP if
    compose.yaml's director starts with it, and ready once its health check passed and its gate
    is turned on here."""
    planned = from_compose.planned_addresses(definitions, DIRECTOR, FRONT, VIP_HOST)
    ports = {name: port for name, port in SERVICE_PORTS.items() if set(SERVICE_SERVERS[name]) & set(lab.servers)}
    vip = lab.api.create(lab.path("services"), vip_service(VIP_SERVICE, {BEHIND_VIP: "yes"}, ports))["spec"]["clusterIP"]
    addresses = {planned["vip"]: vip}
    known: dict[str, str] = {}
    for wave in from_compose.creation_waves(definitions, lab.pod_services(), planned):
        for service in wave:
            serves = {name: SERVICE_PORTS[name] for name, servers in SERVICE_SERVERS.items() if service in servers}
            behind = {BEHIND_VIP: "yes"} if service in INITIAL_BACKENDS.values() else {}
            lab.api.create(lab.path("pods"), from_compose.pod_for(
                service, definitions[service], lab.project, addresses, gated=service in lab.servers,
                host_aliases=dict(known), ports=serves, labels=behind, node_name=lab.node.pinned_node()))
        for service in wave:
            wait_for(f"pod {service} to get an address", functools.partial(_address_of, lab, service),
                     POD_START_S, poll_s=API_POLL_S)
            known[service] = lab.read_pod(service)["ip"]
            if service in planned:
                addresses[planned[service]] = known[service]
            if service in lab.servers:
                lab.pods().set_serving(service, True)
    return vip
