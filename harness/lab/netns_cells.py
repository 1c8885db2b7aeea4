"""Client cells as network namespaces inside one client container, not a container each.

A cell needs a network namespace of its own only for its sysctls (and its link). Here one
container, HOST_SERVICE, holds a namespace per cell: each gets a macvlan on the container's
front interface, named eth0 inside, with its own address on the front network, and starts from
the sysctls a client container starts with, then the cell's own. What the harness runs for a
cell's service runs in the cell's namespace (nsenter), so loads, samplers and faults do
not know the difference. The namespaces and their mounts live in the container's own mount
namespace: they go when the container does, and nothing of them reaches the host.
"""
import shlex
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

HOST_SERVICE = "client-netns"
# SYS_ADMIN: `ip netns add` mounts the namespace, and a cell's /proc/sys is made writable in its
# own mount namespace (the container's stays read-only). NET_ADMIN: the macvlans and addresses.
CAPABILITIES = ("NET_ADMIN", "SYS_ADMIN")
# Front addresses .20-.119: the VIP is .10 and Docker allocates from .128 (compose.yaml's ip_range).
FIRST_HOST, LAST_HOST = 20, 119
MAX_CELLS = LAST_HOST - FIRST_HOST + 1
DOCKER_CPU_SHARES = 1024        # a container's CPU weight unless it is given one


def cpu_shares(namespaces: int, lab_containers: int) -> int:
    """The container's CPU weight: as much as the containers it stands for would have together
    (each gets Docker's 1024), but no more than the rest of the lab's (lab_containers: the
    director and servers). With one container's, its cells got one share of a machine busy with
    other labs, and their timers fired late together (0.23-0.41 s in a make test run); with a
    hundred, they starved the director and servers whose round trips they measure (RTOs of
    212-224 ms instead of 204, the model's error up from 0.01-0.06 s to 0.12 s)."""
    return DOCKER_CPU_SHARES * max(1, min(namespaces, lab_containers))


def plan(namespaces: Iterable[str], front_prefix: str) -> dict[str, str]:
    """{namespace: its front address}, in the order given; ValueError past MAX_CELLS."""
    namespaces = list(dict.fromkeys(namespaces))
    if len(namespaces) > MAX_CELLS:
        raise ValueError(f"{len(namespaces)} network namespaces, but one client container holds at most "
                         f"{MAX_CELLS} (its front addresses .{FIRST_HOST}-.{LAST_HOST})")
    return {name: f"{front_prefix}.{FIRST_HOST + i}" for i, name in enumerate(namespaces)}


def setup_script(cells: Sequence[tuple[str, Sequence[tuple[str, Any]]]], addresses: Mapping[str, str],
                 inherited_sysctls: Sequence[str]) -> str:
    """A bash script, run once in HOST_SERVICE, that makes every cell's namespace.
    cells: [(namespace, ((sysctl, value), ...)), ...]; inherited_sysctls: the sysctls a client
    container starts with (their values are read in HOST_SERVICE, which starts with them too)."""
    lines = ["set -eu"]
    for sysctl in inherited_sysctls:
        lines.append(f"inherited_{_var(sysctl)}=$(sysctl -n {sysctl})")
    for index, (namespace, sysctls) in enumerate(cells):
        ns, link = shlex.quote(namespace), f"bhcell{index}"
        own = dict(sysctls)
        settings = [f"{s}=${{inherited_{_var(s)}}}" for s in inherited_sysctls if s not in own]
        settings += [f"{s}={v}" for s, v in sysctls]
        lines += [
            f"ip netns add {ns}",
            f"ip link add link eth0 name {link} type macvlan mode bridge",
            f"ip link set {link} netns {ns}",
            f"ip -n {ns} link set {link} name eth0",
            f"ip -n {ns} addr add {addresses[namespace]}/24 dev eth0",
            f"ip -n {ns} link set eth0 up",
            f"ip -n {ns} link set lo up",
        ]
        if settings:
            # double quotes: the outer script fills in the inherited values
            lines.append(f'ip netns exec {ns} sh -c "mount -o remount,bind,rw /proc/sys && sysctl -qw '
                         + " ".join(settings) + '"')
    return "\n".join(lines) + "\n"


def path(namespace: str) -> str:
    """The file of the cell's network namespace inside HOST_SERVICE (a program can setns(2) it)."""
    return f"/run/netns/{namespace}"


def command_in(namespace: str, command: Sequence[str]) -> list[str]:
    """command, run in the cell's network namespace (from inside HOST_SERVICE). Not `ip netns
    exec`: that gives each command a mount namespace of its own too, holding a copy of every
    namespace's mount, and a hundred long-lived ones made the container's end take a minute."""
    return ["nsenter", f"--net={path(namespace)}", "--", *command]


def _var(sysctl: str) -> str:
    return sysctl.replace(".", "_")
