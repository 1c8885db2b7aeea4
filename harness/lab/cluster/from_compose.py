"""A Compose service of the lab, as Compose itself resolved it (`docker compose config`), made a
pod (pure): the same image, command, environment, sysctls, capabilities and in-memory mounts.

What a cluster does differently, said here once:
  addresses    a pod's address is the cluster's choice; what the Compose file fixed (a server's
               back-network address, the VIP) is rewritten to the pod's or the Service's
               (rewrite_addresses), so a pod that names another is made after it (depends_on).
  health       the Compose health check becomes the container's startup probe: it gates the pod's
               readiness until it first passes, and never runs again. Readiness after that is
               the lab's own readiness gate (pods.SERVING): under TCG a periodic probe of a healthy
               server timed out now and then, and its endpoint left the Service.
  restarts     restartPolicy Always, so a restart is the container's PID 1 ending and the kubelet
               starting it again in the same pod (same address), as `compose restart` keeps it;
               the lab counts a restart it did not ask for as a problem.
"""
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .pods import SERVING

LABEL = "blackhole-lab/service"
STARTUP_PERIOD_S = 2
STARTUP_TIMEOUT_S = 30          # one check's time in a TCG guest (compose_env's HEALTH_TIMEOUT)
STARTUP_LIMIT_S = 1200          # how long a server may take to pass its check the first time


def probe_command(test: str | Sequence[str]) -> list[str]:
    """A Compose health check's test as an exec probe's command."""
    if isinstance(test, str):
        return ["sh", "-c", test]
    kind, *rest = test
    return ["sh", "-c", rest[0]] if kind == "CMD-SHELL" else rest


def rewrite_addresses(value: object, addresses: Mapping[str, str]) -> str:
    """value with each address Compose fixed replaced by where it is in the cluster."""
    text = str(value)
    for old, new in sorted(addresses.items(), key=lambda item: -len(item[0])):
        text = text.replace(old, new)
    return text


def pod_for(service: str, definition: Mapping[str, Any], namespace: str, addresses: Mapping[str, str],
            gated: bool = False, host_aliases: Mapping[str, str] | None = None, ports: Mapping[str, int] | None = None,
            labels: Mapping[str, str] | None = None, node_name: str | None = None) -> dict[str, Any]:
    """The pod manifest of one rendered Compose service; addresses: {Compose's address: the
    cluster's}; gated: ready only while the lab says so (pods.serving); host_aliases: {name:
    address} written into the pod's /etc/hosts (the cluster has no DNS for the lab's names);
    ports: {name: container port} it serves; labels: more labels; node_name: the node it must go on."""
    container: dict[str, Any] = {"name": service, "image": definition["image"], "imagePullPolicy": "Never"}
    if ports:
        container["ports"] = [{"name": n, "containerPort": p} for n, p in sorted(ports.items())]
    if definition.get("entrypoint"):
        container["command"] = list(definition["entrypoint"])
    if definition.get("command"):
        container["args"] = list(definition["command"])
    environment = definition.get("environment") or {}
    if environment:
        container["env"] = [{"name": k, "value": rewrite_addresses(v if v is not None else "", addresses)}
                            for k, v in sorted(environment.items())]
    if definition.get("cap_add"):
        container["securityContext"] = {"capabilities": {"add": sorted(definition["cap_add"])}}
    check = definition.get("healthcheck")
    if check and not check.get("disable"):
        container["startupProbe"] = {"exec": {"command": probe_command(check["test"])},
                                     "periodSeconds": STARTUP_PERIOD_S, "timeoutSeconds": STARTUP_TIMEOUT_S,
                                     "failureThreshold": STARTUP_LIMIT_S // STARTUP_PERIOD_S}
    volumes: list[dict[str, Any]] = []
    for index, path in enumerate(definition.get("tmpfs") or ()):
        name = f"tmpfs-{index}"
        volumes.append({"name": name, "emptyDir": {"medium": "Memory"}})
        container.setdefault("volumeMounts", []).append({"name": name, "mountPath": path.split(":")[0]})
    spec: dict[str, Any] = {"containers": [container], "restartPolicy": "Always", "terminationGracePeriodSeconds": 1,
            "enableServiceLinks": False, "automountServiceAccountToken": False}
    if definition.get("hostname"):
        spec["hostname"] = definition["hostname"]
    if node_name:
        spec["nodeName"] = node_name
    if volumes:
        spec["volumes"] = volumes
    if gated:
        spec["readinessGates"] = [{"conditionType": SERVING}]
    sysctls = definition.get("sysctls") or {}
    if sysctls:
        spec["securityContext"] = {"sysctls": [{"name": k, "value": str(v)} for k, v in sorted(sysctls.items())]}
    if host_aliases:
        spec["hostAliases"] = [{"ip": ip, "hostnames": sorted(n for n, a in host_aliases.items() if a == ip)}
                               for ip in sorted(set(host_aliases.values()))]
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": service, "namespace": namespace, "labels": {LABEL: service, **(labels or {})}},
            "spec": spec}


def names_of(definition: Mapping[str, Any], planned: Mapping[str, str]) -> set[str]:
    """The services whose planned address (planned_addresses) the definition's environment names."""
    said = " ".join(str(v) for v in (definition.get("environment") or {}).values())
    return {service for service, address in planned.items() if re.search(rf"(?<![\d.]){re.escape(address)}(?![\d])", said)}


def creation_waves(definitions: Mapping[str, Mapping[str, Any]], wanted: Sequence[str],
                   planned: Mapping[str, str] | None = None) -> list[list[str]]:
    """The services of wanted in the order a cluster can make them: each wave after the waves of
    what it depends on among wanted: Compose's depends_on, and the services whose planned address
    it names (planned: planned_addresses; the replica names its primary's, which a cluster
    rewrites to the primary pod's, known once that pod has its address)."""
    planned = planned or {}

    def needs(service: str) -> set[str]:
        return (set(definitions[service].get("depends_on") or ()) | names_of(definitions[service], planned)) - {service}
    left, made, waves = list(wanted), set[str](), list[list[str]]()
    while left:
        wave = [s for s in left if not (needs(s) & set(wanted)) - made]
        if not wave:
            raise ValueError(f"a dependency cycle among {', '.join(left)}")
        waves.append(wave)
        made |= set(wave)
        left = [s for s in left if s not in made]
    return waves


def planned_addresses(definitions: Mapping[str, Mapping[str, Any]], director: str, front: str,
                      vip_host: int | str) -> dict[str, str]:
    """{service or 'vip': the address the Compose file fixes for it}: each server's, and the VIP
    (the front network's host vip_host, the director's network)."""
    planned: dict[str, str] = {}
    for service, definition in definitions.items():
        for network in (definition.get("networks") or {}).values():
            if network and network.get("ipv4_address") and service != director:
                planned.setdefault(service, network["ipv4_address"])
    director_front = ((definitions.get(director, {}).get("networks") or {}).get(front) or {}).get("ipv4_address")
    if director_front:
        planned["vip"] = f"{director_front.rsplit('.', 1)[0]}.{vip_host}"
    return planned
