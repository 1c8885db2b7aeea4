"""cluster-up, cluster-down, cluster-status: a single-node Kubernetes cluster in a guest kernel
(harness/lab/cluster), kept until cluster-down."""
import json
import os

from ..errors import LabError
from ..lab.cluster import ClusterNode
from .options import add


def add_commands(commands):
    command = add(commands, "cluster-up", cmd_up, "boot a guest and start a single-node Kubernetes cluster in it "
                  "(etcd, API server, controller-manager, scheduler, containerd, kubelet, kube-proxy in IPVS mode); "
                  "kept until cluster-down")
    command.add_argument("--kernel", default=os.environ.get("KERNEL") or "6.12",
                         help="the Debian kernel the node boots (6.1, 6.12, ...; never this host's)")
    add(commands, "cluster-down", cmd_down, "stop the cluster's guest; nothing of it is left")
    add(commands, "cluster-status", cmd_status, "whether a cluster is up, its node's readiness, how long its "
        "start took")


def cmd_up(args):
    if args.kernel == "host":
        raise LabError("cluster: never on this host (kubelet changes host-wide sysctls and cgroups): "
                       "give a guest kernel, e.g. KERNEL=6.12")
    ClusterNode(kernel=args.kernel).up()


def cmd_down(args):
    ClusterNode().down()


def cmd_status(args):
    print(json.dumps(ClusterNode().status(), indent=1))
