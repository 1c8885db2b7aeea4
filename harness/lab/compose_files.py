"""The Compose files of a lab, as data: compose.yaml (and compose.ipvs.yaml on the ipvs
datapath) plus what a run adds to them: its client cells' services, NET_ADMIN for the nodes its
faults change, and what its database engine and control plane put in the lab. Pure: the
caller writes the documents (compose.py)."""
import copy
import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..topology import DIRECTOR, SERVERS
from . import netns_cells
from .base import ClientCell
from .images import COMPOSE_FILE, IPVS_OVERRIDE

CELL_LABEL = "org.blackhole-lab.cell"


@dataclasses.dataclass(frozen=True)
class LabShape:
    """What one lab is made of, besides compose.yaml."""
    cells: tuple[ClientCell, ...] = ()   # a client namespace each
    servers: tuple[str, ...] | None = None           # the servers started (None: all of compose.yaml's)
    net_admin: frozenset[str] = frozenset()   # nodes besides the director that get CAP_NET_ADMIN
    in_netns: bool = False            # the cells are namespaces of one client container
    services: tuple[Mapping[str, Any], ...] = ()   # ({service: its Compose definition}, ...) a database or control plane adds

    def started(self) -> list[str]:
        """The services `up` names: none (all of compose.yaml's) or the director, the servers asked
        for, the nodes a control plane adds (overrides of a server start with it) and the cells' clients."""
        if self.servers is None:
            return []
        clients = [netns_cells.HOST_SERVICE] if self.in_netns else [cell.service for cell in self.cells]
        added = [name for document in self.services for name in document if name not in SERVERS]
        return list(dict.fromkeys([DIRECTOR, *self.servers, *added, *clients]))


def static_files(datapath: str) -> list[Path]:
    """The lab's own files, in Compose's order."""
    return [COMPOSE_FILE] + ([IPVS_OVERRIDE] if datapath == "ipvs" else [])


def documents(shape: LabShape, base: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """[(file name, Compose document)] a lab adds to static_files(), in Compose's order;
    base: compose.yaml's services, which client containers and added nodes copy."""
    added = []
    if shape.cells:
        added.append(("compose.cells.yaml", {"services": _cell_services(shape, base["client"])}))
    for index, services in enumerate(shape.services):
        added.append((f"compose.added-{index}.yaml",
                      {"services": {name: _added_service(name, spec, base) for name, spec in services.items()}}))
    servers = sorted(shape.net_admin - {cell.service for cell in shape.cells} - {netns_cells.HOST_SERVICE})
    if servers:
        added.append(("compose.net-admin.yaml", {"services": {s: {"cap_add": ["NET_ADMIN"]} for s in servers}}))
    return added


def _cell_services(shape: LabShape, client_base: Mapping[str, Any]) -> dict[str, Any]:
    services = {}
    if shape.in_netns:
        service = client_service(client_base, netns_cells.HOST_SERVICE)
        service["cap_add"] = list(netns_cells.CAPABILITIES)
        others = 1 + len(SERVERS if shape.servers is None else shape.servers)      # the director and servers
        service["cpu_shares"] = netns_cells.cpu_shares(len(shape.cells), others)
        services[netns_cells.HOST_SERVICE] = service
        return services
    for cell in shape.cells:
        service = client_service(client_base, cell.service)
        service["sysctls"] = {**service.get("sysctls", {}), **{k: str(v) for k, v in cell.sysctls}}
        service["labels"][CELL_LABEL] = cell.name
        if cell.netem or cell.service in shape.net_admin:
            service["cap_add"] = ["NET_ADMIN"]
        services[cell.service] = service
    return services


def _added_service(name: str, spec: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any]:
    """A service a database engine or a control plane asks for, as Compose takes it: `like` (a
    copy of another of compose.yaml's services, under its own name), `addresses` ({network:
    address}), `unset` (keys of what it is like it must not have: a container in another's network
    namespace has no networks, hostname or sysctls of its own); the rest (environment, sysctls,
    ...) merged over what it is like."""
    spec = dict(spec)
    like, addresses, unset = spec.pop("like", None), spec.pop("addresses", {}), spec.pop("unset", ())
    service = client_service(base[like], name) if like else {}
    for key in unset:
        service.pop(key, None)
    for key, value in spec.items():
        service[key] = {**service.get(key, {}), **value} if isinstance(value, dict) else value
    if addresses:
        service["networks"] = {network: {"ipv4_address": address} for network, address in addresses.items()}
    return service


def client_service(base: Mapping[str, Any], name: str) -> dict[str, Any]:
    """A client container's service, as compose.yaml's client service (which builds the image, once)."""
    service = copy.deepcopy(dict(base))
    service.pop("build", None)
    service["pull_policy"] = "never"
    service["labels"] = dict(service.get("labels", {}))
    service["hostname"] = name
    return service
