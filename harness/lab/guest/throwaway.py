"""The throwaway daemons that fill a guest's tree on this host (a dockerd for the lab's images,
a containerd for a cluster node's): kept off the host's network and mounts, and stopped."""
import subprocess
from typing import Any

# On the host's links a dockerd started with --bridge=none deletes the host's docker0 (moby's
# removeDefaultBridgeInterface); in a mount namespace of its own, a daemon's overlay mounts go
# with it when it exits, however it exits.
OWN_NAMESPACES = ("unshare", "--net", "--mount", "--propagation", "private", "--")


def stop(daemon: subprocess.Popen[Any], timeout_s: float = 30) -> None:
    daemon.terminate()
    try:
        daemon.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        daemon.kill()
        daemon.wait()
