"""env.json: what a run ran on (kernel, datapath, versions, every sysctl applied)."""
import platform

from .scenario import SYSCTL_KNOBS

SYSCTL_FILES = {name: "/proc/sys/" + sysctl.replace(".", "/") for name, (sysctl, _, _) in SYSCTL_KNOBS.items()}


def _first_line(lab, service, command):
    result = lab.exec(service, command, check=False)
    return (result.stdout or result.stderr).strip().splitlines()[0] if (result.stdout or result.stderr) else ""


def collect(lab, director, scenario):
    namespaces = {}
    for namespace, service in sorted({(c.namespace, c.service) for c in scenario.cells}):
        values = lab.exec(service, ["cat", *SYSCTL_FILES.values()]).stdout.split()
        namespaces[namespace] = dict(zip(SYSCTL_FILES, map(int, values)))
    cells = {c.name: {"container": c.service, "sysctls_requested": dict(c.sysctls),
                      "sysctls_applied": namespaces[c.namespace], "socket_options": c.socket_env(),
                      "read_timeout_s": c.read_timeout_s, "idle_s": c.idle_s}
             for c in scenario.cells}
    director_sysctls = lab.exec("director", ["cat", "/proc/sys/net/netfilter/nf_conntrack_tcp_loose"],
                                check=False).stdout.split()
    return {
        "kernel": platform.release(),
        "director": {"conntrack_loose": int(director_sysctls[0]) if director_sysctls else None,
                     "idle_timeout_s": director.state()["idle_timeout_s"]},
        "host_tcp_retries2": int(open("/proc/sys/net/ipv4/tcp_retries2").read()),
        "datapath": director.datapath,
        "datapath_requested": scenario.datapath,
        "images": lab.image_ids(),
        "versions": {
            "docker_compose": lab.compose_version(),
            "sysbench": _first_line(lab, scenario.cells[0].service, ["sysbench", "--version"]),
            "mariadb": _first_line(lab, "mysql-primary", ["mariadbd", "--version"]),
            "nginx": _first_line(lab, "web-a", ["nginx", "-v"]),
            "nft": _first_line(lab, "director", ["nft", "--version"]),
        },
        "namespaces": namespaces,
        "cells": cells,
    }
