"""env.json: what a run ran on (where, kernel, datapath, versions, every sysctl applied)."""
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..control.base import ControlPlane
from ..databases import database
from ..director import Director
from ..lab.base import ExecResult, Lab
from ..load.clients import CLIENTS, DEFAULT_CLIENT
from ..pools import POOLS
from ..scenario.model import Scenario
from ..scenario.knobs import SYSCTL_KNOBS
from ..topology import DIRECTOR, FRONT, is_director
from . import version_cache

SYSCTL_FILES = {name: knob.proc_path for name, knob in SYSCTL_KNOBS.items()}
# How long one of its execs may take. It is asked during the warm-up, off the measured path, and a
# busy machine's engine can stand still longer than the lab's usual 60 s: in one clean-clone
# `make test` beside a looping matrix, containerd answered nothing for ~100 s (dockerd: health
# checks and "get state" past their deadlines from 08:54:42 to 08:56:35) and an `lbctl list`
# whose whole answer had been printed did not end within 60 s.
EXEC_LIMIT_S = 300
READ_MARK = "#read"          # starts each service's values in the output of a container's one read


# What the director's kernel does with flows: conntrack's loose pick-up, and IPVS's own settings
# (present only where IPVS is).
DIRECTOR_SYSCTLS = {"conntrack_loose": "/proc/sys/net/netfilter/nf_conntrack_tcp_loose",
                    "ipvs_expire_nodest_conn": "/proc/sys/net/ipv4/vs/expire_nodest_conn",
                    "ipvs_conntrack": "/proc/sys/net/ipv4/vs/conntrack",
                    # its own connects' SYN schedule: a health checker's (keepalived's TCP_CHECK)
                    "tcp_syn_retries": SYSCTL_FILES["tcp_syn_retries"],
                    "tcp_syn_linear_timeouts": SYSCTL_FILES["tcp_syn_linear_timeouts"]}


def _read_ints(lab: Lab, services_and_files: Sequence[tuple[str, Mapping[str, str]]]) -> list[dict[str, int]]:
    """[{name: int} of the files that exist] for each (service, files): one exec per container, the
    cells in network namespaces of one container read from one exec there (nsenter), all side by side."""
    reads_in: dict[str, list] = {}          # container's service -> [(index, netns file or None, files)]
    for index, (service, files) in enumerate(services_and_files):
        container, netns = lab.placement(service)
        reads_in.setdefault(container, []).append((index, netns, files))
    results = lab.exec_each([(container, ["sh", "-c", "; ".join(_read_script(*read) for read in reads)])
                             for container, reads in reads_in.items()], check=False, timeout=EXEC_LIMIT_S)
    values: dict[int, list[str]] = {}
    for result in results:
        for chunk in result.stdout.split(READ_MARK)[1:]:
            number, *read = chunk.split()
            values[int(number)] = read
    return [{name: int(v) for name, v in zip(files, values.get(index, ())) if v.lstrip("-").isdigit()}
            for index, (_, files) in enumerate(services_and_files)]


def _read_script(index: int, netns: str | None, files: Mapping[str, str]) -> str:
    """Prints READ_MARK, index, then each file's value or '-'."""
    cats = "; ".join(f"cat {path} 2>/dev/null || echo -" for path in files.values())
    return f"echo '{READ_MARK} {index}'; " + (f"nsenter --net={netns} -- sh -c '{cats}'" if netns else cats)


def _first_line(result: ExecResult) -> str:
    text = (result.stdout or result.stderr).strip()
    return text.splitlines()[0] if text else ""


def _client_version_commands(scenario: Scenario) -> list[tuple[str, str, tuple[str, ...]]]:
    """(client NAME, the first cell's service running it, its version command) per client the cells use."""
    first: dict[str, str] = {}
    for cell in scenario.cells:
        first.setdefault(cell.client, cell.service)
    commands = {c.name: c.version_command for c in CLIENTS.values() if c.version_command}
    library = database(scenario.database).probe_library         # the default client's library on this engine
    if library and DEFAULT_CLIENT in first:
        first[library[0]] = first.pop(DEFAULT_CLIENT)
        commands[library[0]] = library[1]
    return [(f"client {name}", service, ("sh", "-c", commands[name]))
            for name, service in first.items() if name in commands]


def _pool_version_commands(scenario: Scenario) -> list[tuple[str, str, Sequence[str]]]:
    """(pool NAME, the first cell's service running it, its version command) per pool the cells use."""
    first: dict[str, str] = {}
    for cell in scenario.cells:
        if cell.pool:
            first.setdefault(cell.pool, cell.service)
    return [(name, service, POOLS[name].version_command) for name, service in first.items()]


def _versions(lab: Lab, scenario: Scenario, control: ControlPlane, images: Mapping[str, str]) -> dict[str, str]:
    """{name: its version line}; images: {service: image id} of the running containers, whose lines
    were kept before are not asked again (version_cache.py)."""
    running = set(lab.services()) | {c.service for c in scenario.cells}
    asked = [(name, service, command) for name, service, command in (
        ("sysbench", scenario.cells[0].service, ["sysbench", "--version"]),
        (lab.database.name, "db-primary", list(lab.database.version_command)),
        ("nginx", "web-a", ["nginx", "-v"]),
        ("nft", DIRECTOR, ["nft", "--version"]),
        *([("ipvsadm", DIRECTOR, ["ipvsadm", "--version"])] if lab.datapath == "ipvs" else []),
        *control.version_commands(), *_client_version_commands(scenario), *_pool_version_commands(scenario))
        if service in running]
    keys = [version_cache.key(images.get(lab.placement(service)[0]), command) for _, service, command in asked]
    kept = version_cache.known()
    lines = {name: kept[k] for (name, _, _), k in zip(asked, keys) if k in kept}
    unknown = [(name, service, command, k) for (name, service, command), k in zip(asked, keys) if name not in lines]
    results = lab.exec_each([(service, command) for _, service, command, _ in unknown], check=False,
                            timeout=EXEC_LIMIT_S)
    for (name, _, _, _), result in zip(unknown, results):
        lines[name] = _first_line(result)
    version_cache.keep({k: lines[name] for (name, _, _, k), result in zip(unknown, results)
                        if k and result.returncode == 0 and lines[name]})
    return {name: lines[name] for name, _, _ in asked}


def place_versions(where: Mapping[str, Any]) -> dict[str, Any]:
    """What a guest's record says of the machine under the lab: QEMU and the kernel package."""
    found = {"qemu": where.get("qemu")} if where.get("qemu") else {}
    if where.get("package"):
        found["kernel package"] = f"{where['package']} {where.get('package_version', '')}".strip()
    return found


def collect(lab: Lab, director: Director, scenario: Scenario, control: ControlPlane,
            director_ready: Callable[[], object] = lambda: None) -> dict[str, Any]:
    """Its parts are asked for side by side (a run records this while its clients start);
    director_ready() returns once the director has set its datapath up: what the director's table
    and sysctls say is read after it, the rest meanwhile."""
    containers = sorted({(c.namespace, c.service) for c in scenario.cells})
    others = [s for s in lab.services() if is_director(s) and s != DIRECTOR]      # a control plane's more directors
    with ThreadPoolExecutor(5) as pool:
        cell_sysctls = pool.submit(_read_ints, lab, [(service, SYSCTL_FILES) for _, service in containers])
        described = pool.submit(lab.describe)
        versions = pool.submit(lambda: _versions(lab, scenario, control, described.result()["images"]))
        director_ready()
        sysctls = pool.submit(_read_ints, lab, [(d, DIRECTOR_SYSCTLS) for d in others] + [(DIRECTOR, DIRECTOR_SYSCTLS)])
        state = pool.submit(director.state, timeout=EXEC_LIMIT_S)
    # A knob this kernel does not have is left out.
    *other_sysctls, director_sysctls = sysctls.result()
    applied, other_directors = cell_sysctls.result(), dict(zip(others, other_sysctls))
    namespaces = {namespace: values for (namespace, _), values in zip(containers, applied)}
    cells = {c.name: {"container": c.service, "front_address": lab.address(c.service, FRONT),
                      "sysctls_requested": dict(c.sysctls),
                      "sysctls_applied": namespaces[c.namespace], "socket_options": c.socket_env(),
                      "read_timeout_s": c.read_timeout_s, "idle_s": c.idle_s}
             for c in scenario.cells}
    lab_record = described.result()
    return {
        "kernel": lab_record["kernel"],
        "where": lab_record["where"],
        "kernel_facts": lab_record["kernel_facts"],   # HZ, and the TCP and IPVS sysctls a new namespace starts with
        "lab": lab_record["lab"],
        "director": {**director_sysctls, "idle_timeout_s": state.result()["idle_timeout_s"],
                     "forgotten_flows": state.result().get("forgotten_flows", "reset")},
        "host_tcp_retries2": int(open("/proc/sys/net/ipv4/tcp_retries2").read()),
        "datapath": state.result()["datapath"],
        "datapath_requested": scenario.datapath,
        "images": lab_record["images"],
        "versions": {**{tool: lab_record[tool] for tool in ("docker_compose", "kubernetes") if tool in lab_record},
                     **place_versions(lab_record["where"]), **versions.result()},
        "cell_namespaces": lab.cell_namespaces,     # a container each, or netns in one container
        "control_plane": scenario.control,          # who changed the director (harness/control/)
        "database": lab.database.name,              # the engine the database servers ran (harness/databases/)
        **({"control_settings": dict(scenario.control_settings), "directors": other_directors}
           if scenario.control != "manual" else {}),
        "namespaces": namespaces,
        "cells": cells,
    }
