"""What a Kubernetes cluster lets a scenario's cells do, asked of the cluster itself, and the cells
it would refuse, each with one line naming the setting that would allow it.

A cell's TCP sysctls become its pod's `securityContext.sysctls`. The kubelet admits a pod only if
every one of them is in its safe set or matches its `allowedUnsafeSysctls` (exact names, or
prefixes written `net.ipv4.*`); otherwise the pod ends Failed, reason SysctlForbidden, after it
was scheduled. The check here runs before anything starts, from each node's own configuration
(the API server's proxy to the kubelet's /configz). Kubernetes v1.34's safe set and its matching
are pkg/kubelet/sysctl/safe_sysctls.go and allowlist.go; the socket options (TCP_USER_TIMEOUT,
keepalive, read timeouts) need nothing of the cluster.
"""
import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .api import ApiError, KubeApi

# Kubernetes v1.34's safe sysctls for kernels from 4.15 on (older kernels drop the later ones).
SAFE_SYSCTLS = ("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.tcp_syncookies",
                "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start", "net.ipv4.ip_local_reserved_ports",
                "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
                "net.ipv4.tcp_keepalive_probes", "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem")
SETTING = "allowedUnsafeSysctls"


class SysctlCell(Protocol):
    """A cell as the nodes are asked whether it can run (scenario/model.py's Cell gives it)."""
    @property
    def name(self) -> str: ...

    def kernel_sysctls(self) -> tuple[tuple[str, Any], ...]: ...


@dataclasses.dataclass(frozen=True)
class NodeAllows:
    node: str
    allowed_unsafe_sysctls: tuple[str, ...]     # the kubelet's allowedUnsafeSysctls, as it reported them

    def allows(self, sysctl: str) -> bool:
        name = normalized(sysctl)
        if name in SAFE_SYSCTLS:
            return True
        for pattern in self.allowed_unsafe_sysctls:
            pattern = normalized(pattern)
            if name == pattern or (pattern.endswith("*") and name.startswith(pattern[:-1])):
                return True
        return False


def normalized(sysctl: str) -> str:
    """The kubelet's spelling: dots between the parts (net/ipv4/tcp_retries2 is net.ipv4.tcp_retries2)."""
    return sysctl.replace("/", ".")


def what_nodes_allow(api: KubeApi) -> list[NodeAllows]:
    """[NodeAllows] for every node of the cluster, from each kubelet's running configuration."""
    found = []
    for node in api.get("/api/v1/nodes")["items"]:
        name = node["metadata"]["name"]
        try:
            config = json.loads(api.request(f"/api/v1/nodes/{name}/proxy/configz"))["kubeletconfig"]
        except ApiError as exc:
            raise ApiError(exc.status, f"node {name}'s kubelet did not give its configuration (/configz): {exc}") \
                from None
        found.append(NodeAllows(name, tuple(config.get(SETTING) or ())))
    return found


def refusals(cells: Iterable[SysctlCell], nodes: Sequence[NodeAllows]) -> list[str]:
    """One line per cell the cluster cannot run: a sysctl of the cell that no node allows.
    cells: the scenario's (scenario.model.Cell); nodes: what_nodes_allow()."""
    if not nodes:
        return ["the cluster has no node to run a pod on"]
    lines = []
    for cell in cells:
        for sysctl, value in cell.kernel_sysctls():
            if not any(node.allows(sysctl) for node in nodes):
                allowed = ", ".join(sorted({p for node in nodes for p in node.allowed_unsafe_sysctls})) or "nothing"
                lines.append(f"cell {cell.name}: no node lets a pod set {sysctl}={value} (an unsafe sysctl): add "
                             f"{sysctl} to the kubelet's {SETTING} (--allowed-unsafe-sysctls); the nodes allow "
                             f"{allowed}")
    return lines


def pod_refusals(nodes: Sequence[NodeAllows], sysctls_of_pods: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One line per sysctl of a pod that no node allows; sysctls_of_pods: {pod: {sysctl: value}}."""
    return [f"no node lets pod {pod} set {name}: add it to the kubelet's {SETTING} (--allowed-unsafe-sysctls)"
            for pod, sysctls in sorted(sysctls_of_pods.items()) for name in sorted(sysctls)
            if not any(node.allows(name) for node in nodes)]
