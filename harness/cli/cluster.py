"""cluster-up, cluster-down, cluster-status: a single-node Kubernetes cluster in a guest kernel
(harness/lab/cluster), kept until cluster-down; cluster-check: whether a cluster (that one, or any
KUBECONFIG's) lets a scenario's cells run."""
import argparse
import json
import os
import sys

from .. import scenario as scenario_module
from ..errors import InvalidInput, LabError
from ..lab.cluster import ClusterNode, allows
from ..lab.cluster.api import KubeApi
from ..lab.cluster.assets import ALLOWED_UNSAFE_SYSCTLS
from . import Commands
from .options import add
from .runs import scenario_overrides


def add_commands(commands: Commands) -> None:
    command = add(commands, "cluster-up", cmd_up, "boot a guest and start a single-node Kubernetes cluster in it "
                  "(etcd, API server, controller-manager, scheduler, containerd, kubelet, kube-proxy in IPVS mode); "
                  "kept until cluster-down")
    command.add_argument("--kernel", default=os.environ.get("KERNEL") or "6.12",
                         help="the Debian kernel the node boots (6.1, 6.12, ...; never this host's)")
    command.add_argument("--allowed-sysctls", default=os.environ.get("ALLOWED_SYSCTLS") or " ".join(
        ALLOWED_UNSAFE_SYSCTLS), help="the kubelet's allowedUnsafeSysctls, space-separated (net.ipv4.* for all); "
        "default: every TCP knob a cell can set")
    command = add(commands, "cluster-check", cmd_check, "whether a cluster lets each cell of a scenario run "
                  "(its sysctls as pod sysctls): one line per cell it would refuse, exit 2 if any")
    command.add_argument("target", metavar="ID", help="scenario id, or a scenario file")
    command.add_argument("--kubeconfig", default=os.environ.get("KUBECONFIG"),
                         help="the cluster's kubeconfig (default: the one `make cluster-up` wrote)")
    add(commands, "cluster-down", cmd_down, "stop the cluster's guest; nothing of it is left")
    add(commands, "cluster-status", cmd_status, "whether a cluster is up, its node's readiness, how long its "
        "start took")


def cmd_up(args: argparse.Namespace) -> None:
    if args.kernel == "host":
        raise LabError("cluster: never on this host (kubelet changes host-wide sysctls and cgroups): "
                       "give a guest kernel, e.g. KERNEL=6.12")
    ClusterNode(kernel=args.kernel, allowed_unsafe_sysctls=args.allowed_sysctls.split()).up()


def cmd_check(args: argparse.Namespace) -> None:
    scenario, _ = scenario_module.load(args.target, scenario_overrides())
    if isinstance(scenario, scenario_module.BurstScenario):
        raise InvalidInput(f"cluster-check: {scenario.id} is a burst scenario, which runs on the Compose labs only "
                       "(LAB=compose)")
    api = KubeApi.from_kubeconfig(args.kubeconfig) if args.kubeconfig else ClusterNode().api()
    nodes = allows.what_nodes_allow(api)
    refused = allows.refusals(scenario.cells, nodes)
    for node in nodes:
        print(f"cluster-check: node {node.node}: {allows.SETTING} {', '.join(node.allowed_unsafe_sysctls) or '(none)'}")
    for line in refused:
        print(f"cluster-check: {scenario.id}: {line}", file=sys.stderr)
    if refused:
        sys.exit(2)
    print(f"cluster-check: {scenario.id}: the cluster lets all {len(scenario.cells)} cell(s) run")


def cmd_down(args: argparse.Namespace) -> None:
    ClusterNode().down()


def cmd_status(args: argparse.Namespace) -> None:
    print(json.dumps(ClusterNode().status(), indent=1))
