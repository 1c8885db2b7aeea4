"""A single-node Kubernetes cluster inside a guest kernel (`make cluster-up` / `make cluster-down`):
the lab's third place to run, beside this host and a bare guest.

  assets.py   what the node is made of, prepared on this host: the Kubernetes programs built from
              the Go module proxy, a certificate, a token, the kubelet's and containerd's settings
  files/      what runs in the guest: node-start, the supervisor that starts and restarts each
              component
  api.py      the API server's REST face, through the guest's forwarded port
  node.py     ClusterNode: up, down, status, for a guest kept in .lab/cluster
Never on this host: kubelet changes host-wide sysctls and cgroups (K8S_FACTS.md).
"""
from .node import ClusterNode, NodeNotUp

__all__ = ["ClusterNode", "NodeNotUp"]
