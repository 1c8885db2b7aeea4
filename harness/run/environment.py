"""env.json: what a run ran on (where, kernel, datapath, versions, every sysctl applied)."""
from ..scenario.knobs import SYSCTL_KNOBS
from ..topology import DIRECTOR

SYSCTL_FILES = {name: knob.proc_path for name, knob in SYSCTL_KNOBS.items()}


# What the director's kernel does with flows: conntrack's loose pick-up, and IPVS's own settings
# (present only where IPVS is).
DIRECTOR_SYSCTLS = {"conntrack_loose": "/proc/sys/net/netfilter/nf_conntrack_tcp_loose",
                    "ipvs_expire_nodest_conn": "/proc/sys/net/ipv4/vs/expire_nodest_conn",
                    "ipvs_conntrack": "/proc/sys/net/ipv4/vs/conntrack"}


def _read_ints(lab, service, files):
    """{name: int} of the files that exist, read with one exec."""
    script = "; ".join(f"cat {path} 2>/dev/null || echo -" for path in files.values())
    values = lab.exec(service, ["sh", "-c", script], check=False).stdout.split()
    return {name: int(v) for name, v in zip(files, values) if v.lstrip("-").isdigit()}


def _first_line(lab, service, command):
    result = lab.exec(service, command, check=False)
    return (result.stdout or result.stderr).strip().splitlines()[0] if (result.stdout or result.stderr) else ""


def _versions(lab, scenario):
    running = set(lab.services())
    versions = {"docker_compose": lab.compose_version(),
                "sysbench": _first_line(lab, scenario.cells[0].service, ["sysbench", "--version"])}
    for name, service, command in (("mariadb", "mysql-primary", ["mariadbd", "--version"]),
                                   ("nginx", "web-a", ["nginx", "-v"])):
        if service in running:
            versions[name] = _first_line(lab, service, command)
    versions["nft"] = _first_line(lab, DIRECTOR, ["nft", "--version"])
    return versions


def collect(lab, director, scenario):
    # A knob this kernel does not have is left out.
    namespaces = {namespace: _read_ints(lab, service, SYSCTL_FILES)
                  for namespace, service in sorted({(c.namespace, c.service) for c in scenario.cells})}
    cells = {c.name: {"container": c.service, "sysctls_requested": dict(c.sysctls),
                      "sysctls_applied": namespaces[c.namespace], "socket_options": c.socket_env(),
                      "read_timeout_s": c.read_timeout_s, "idle_s": c.idle_s}
             for c in scenario.cells}
    director_sysctls = _read_ints(lab, DIRECTOR, DIRECTOR_SYSCTLS)
    return {
        "kernel": lab.kernel_release(),
        "where": lab.where(),
        "lab": {"project": lab.project, "front": lab.env.get("LAB_FRONT_PREFIX", "10.213.1"),
                "back": lab.env.get("LAB_BACK_PREFIX", "10.213.2")},
        "director": {**director_sysctls, "idle_timeout_s": director.state()["idle_timeout_s"]},
        "host_tcp_retries2": int(open("/proc/sys/net/ipv4/tcp_retries2").read()),
        "datapath": director.datapath,
        "datapath_requested": scenario.datapath,
        "images": lab.image_ids(),
        "versions": _versions(lab, scenario),
        "namespaces": namespaces,
        "cells": cells,
    }
