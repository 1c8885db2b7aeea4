"""env.json: what a run ran on (where, kernel, datapath, versions, every sysctl applied)."""
from concurrent.futures import ThreadPoolExecutor

from ..databases import database
from ..load.clients import DEFAULT_CLIENT, VERSION_COMMANDS
from ..pools import POOLS
from ..scenario.knobs import SYSCTL_KNOBS
from ..topology import DIRECTOR, FRONT, is_director

SYSCTL_FILES = {name: knob.proc_path for name, knob in SYSCTL_KNOBS.items()}
# How long one of its execs may take. It is asked during the warm-up, off the measured path, and a
# busy machine's engine can stand still longer than the lab's usual 60 s: in one clean-clone
# `make test` beside a looping matrix, containerd answered nothing for ~100 s (dockerd: health
# checks and "get state" past their deadlines from 08:54:42 to 08:56:35) and an `lbctl list`
# whose whole answer had been printed did not end within 60 s.
EXEC_LIMIT_S = 300


# What the director's kernel does with flows: conntrack's loose pick-up, and IPVS's own settings
# (present only where IPVS is).
DIRECTOR_SYSCTLS = {"conntrack_loose": "/proc/sys/net/netfilter/nf_conntrack_tcp_loose",
                    "ipvs_expire_nodest_conn": "/proc/sys/net/ipv4/vs/expire_nodest_conn",
                    "ipvs_conntrack": "/proc/sys/net/ipv4/vs/conntrack",
                    # its own connects' SYN schedule: a health checker's (keepalived's TCP_CHECK)
                    "tcp_syn_retries": SYSCTL_FILES["tcp_syn_retries"],
                    "tcp_syn_linear_timeouts": SYSCTL_FILES["tcp_syn_linear_timeouts"]}


def _read_ints(lab, services_and_files):
    """[{name: int} of the files that exist] for each (service, files), each service read with one
    exec, all side by side."""
    results = lab.exec_each([(service, ["sh", "-c", "; ".join(f"cat {path} 2>/dev/null || echo -"
                                                             for path in files.values())])
                             for service, files in services_and_files], check=False, timeout=EXEC_LIMIT_S)
    return [{name: int(v) for name, v in zip(files, result.stdout.split()) if v.lstrip("-").isdigit()}
            for (_, files), result in zip(services_and_files, results)]


def _first_line(result):
    text = (result.stdout or result.stderr).strip()
    return text.splitlines()[0] if text else ""


def _client_version_commands(scenario):
    """(client NAME, the first cell's service running it, its version command) per client the cells use."""
    first = {}
    for cell in scenario.cells:
        first.setdefault(cell.client, cell.service)
    commands = dict(VERSION_COMMANDS)
    library = database(scenario.database).probe_library         # the default client's library on this engine
    if library and DEFAULT_CLIENT in first:
        first[library[0]] = first.pop(DEFAULT_CLIENT)
        commands[library[0]] = library[1]
    return [(f"client {name}", service, ("sh", "-c", commands[name]))
            for name, service in first.items() if name in commands]


def _pool_version_commands(scenario):
    """(pool NAME, the first cell's service running it, its version command) per pool the cells use."""
    first = {}
    for cell in scenario.cells:
        if cell.pool:
            first.setdefault(cell.pool, cell.service)
    return [(name, service, POOLS[name].version_command) for name, service in first.items()]


def _versions(lab, scenario, control):
    running = set(lab.services()) | {c.service for c in scenario.cells}
    asked = [(name, service, command) for name, service, command in (
        ("sysbench", scenario.cells[0].service, ["sysbench", "--version"]),
        (lab.database.name, "mysql-primary", list(lab.database.version_command)),
        ("nginx", "web-a", ["nginx", "-v"]),
        ("nft", DIRECTOR, ["nft", "--version"]),
        *([("ipvsadm", DIRECTOR, ["ipvsadm", "--version"])] if lab.datapath == "ipvs" else []),
        *control.version_commands(), *_client_version_commands(scenario), *_pool_version_commands(scenario))
        if service in running]
    results = lab.exec_each([(service, command) for _, service, command in asked], check=False,
                            timeout=EXEC_LIMIT_S)
    return {name: _first_line(result) for (name, _, _), result in zip(asked, results)}


def place_versions(where):
    """What a guest's record says of the machine under the lab: QEMU and the kernel package."""
    found = {"qemu": where.get("qemu")} if where.get("qemu") else {}
    if where.get("package"):
        found["kernel package"] = f"{where['package']} {where.get('package_version', '')}".strip()
    return found


def collect(lab, director, scenario, control):
    """Its parts are asked for side by side (a run records this while its clients start)."""
    containers = sorted({(c.namespace, c.service) for c in scenario.cells})
    others = [s for s in lab.services() if is_director(s) and s != DIRECTOR]      # a control plane's more directors
    with ThreadPoolExecutor(4) as pool:
        sysctls = pool.submit(_read_ints, lab, [(service, SYSCTL_FILES) for _, service in containers]
                              + [(d, DIRECTOR_SYSCTLS) for d in others] + [(DIRECTOR, DIRECTOR_SYSCTLS)])
        state, described = pool.submit(director.state, timeout=EXEC_LIMIT_S), pool.submit(lab.describe)
        versions = pool.submit(_versions, lab, scenario, control)
    # A knob this kernel does not have is left out.
    *applied, director_sysctls = sysctls.result()
    applied, other_directors = applied[:len(containers)], dict(zip(others, applied[len(containers):]))
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
