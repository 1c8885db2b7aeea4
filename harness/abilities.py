"""What only some places can do, each an ability of its own a caller asks for with isinstance
(never a member every Lab has that returns None elsewhere); a place has one by having its
members (ClusterLab: pods()). It lives outside lab/ so that a fault asks without importing a
place (docs/adding-a-place-to-run.md)."""
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class RunsServersAsPods(Protocol):
    """The lab's servers are pods a cluster runs: the faults in Kubernetes' terms (a pod's readiness
    off, a pod deleted, its node lost) act on them (cluster/pod_faults.py's ClusterPods). Where the
    servers are containers, those faults write the kube-api container's EndpointSlices instead
    (harness/faults/endpoint_slices.py)."""

    def pods(self) -> Any:
        ...


@runtime_checkable
class KeepsEvidenceOfItsPlace(Protocol):
    """The place can tell something of a run besides the lab's nodes: a guest's console log and
    its clock's offset, a cluster's events and its node. On this host's engine there is nothing
    more to keep, and a run keeps nothing of its place."""
    keeps: str                # what it keeps, in the cleanup's words: "the guest's console"

    def keep_evidence(self, directory: Path) -> None:
        ...


def pods_of(lab: object) -> Any:
    """The lab's pods (ClusterPods), or None where its servers are containers."""
    return lab.pods() if isinstance(lab, RunsServersAsPods) else None
