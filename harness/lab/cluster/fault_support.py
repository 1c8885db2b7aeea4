"""Which faults a cluster lab makes, asked before anything starts (ClusterLab.refusal): each made
one is named here with what it needs of the cluster, and anything else is refused in one line.
Each one made here is run, or refused, by a test on the test cluster (tests/cluster/)."""
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...faults.base import Fault

if TYPE_CHECKING:
    from .lab import ClusterLab


def swap_problem(nodest: str, drain_s: float) -> str | None:
    """Why kube-proxy cannot make this swap, or None."""
    if nodest != "drop" or drain_s:
        return (f"kube-proxy keeps a removed backend's flows (graceful termination); a swap with nodest={nodest} "
                "or a drain needs the lab's own director (LAB=compose, the default)")
    return None


def _swap(params: Mapping[str, Any], lab: "ClusterLab") -> str | None:
    return swap_problem(params.get("nodest", "drop"), params.get("drain_s", 0.0))


def _as_it_is(params: Mapping[str, Any], lab: "ClusterLab") -> str | None:
    return None


def _node_lost(params: Mapping[str, Any], lab: "ClusterLab") -> str | None:
    return lost_node_refusal(lab, params["target"])


# fault -> a check of its params ({name: value}) that returns why the cluster cannot make it, or None
MADE = {
    "ipvs_swap": _swap,
    "promote_replica": _as_it_is,
    "endpoint_not_ready": _as_it_is,
    "endpoint_removed": _as_it_is,
    "node_lost": _node_lost,
    "silent_kill": _as_it_is,          # it cuts the pod on the node too (the node is a director)
}


def refusal(lab: "ClusterLab", fault: Fault) -> str | None:
    """Why the cluster lab cannot make this fault (harness/faults' Fault), in one line, or None."""
    check = MADE.get(fault.name)
    if check is None:
        return (f"cluster: fault {fault.name} is not made on a cluster yet (it makes {', '.join(sorted(MADE))}); "
                "run it with LAB=compose")
    problem = check(fault.p, lab)
    return f"cluster: fault {fault.name}: {problem}" if problem else None


def lost_node_refusal(lab: "ClusterLab", target: str) -> str:
    """node_lost's: losing the target's node must not lose the lab's clients and director."""
    nodes = [n["metadata"]["name"] for n in lab.api.get("/api/v1/nodes")["items"]]
    if len(nodes) == 1:
        return (f"losing {target}'s node would lose the cluster's only node ({nodes[0]}), which runs the lab's clients "
                "and kube-proxy too: it needs a cluster where that pod has a node of its own (the cut of ipvs_swap "
                "shows a lost node's effect on its flows here)")
    return f"losing a node of a {len(nodes)}-node cluster is not made yet (it has been tested on one node only)"
