"""A single-node Kubernetes cluster inside a guest kernel (`make cluster-up` / `make cluster-down`):
the lab's third place to run, beside this host and a bare guest.

  assets.py   what the node is made of, prepared on this host: the Kubernetes programs built from
              the Go module proxy, a certificate, a token, the kubelet's and containerd's settings
  files/      what runs in the guest: node-start, the supervisor that starts and restarts each
              component
  api.py      the API server's REST face, through the guest's forwarded port (or any kubeconfig's)
  node.py     ClusterNode: up, down, status, for a guest kept in .lab/cluster; a command in a
              pod's network namespace, a pod cut off silently
  allows.py   what a cluster lets a scenario's cells do, asked of its kubelets (cluster-check)
  pods.py     the lab's programs as pods and Services (manifests)
Never on this host: kubelet changes host-wide sysctls and cgroups (docs/facts/kubernetes.md).
"""
from .node import ClusterNode, NodeNotUp

__all__ = ["ClusterNode", "NodeNotUp"]
