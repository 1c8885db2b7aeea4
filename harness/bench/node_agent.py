"""make bench-node-agent [KUBECONFIG=...] [COMMANDS=20]: what a node command costs through the node
agent (LAB=kubernetes with a kubeconfig of its own: agent.py), a `kubectl exec` per command against
the lab's exec sessions (agent_session.py), side by side on the same agent: COMMANDS of each, in
turns, then four threads at once through the sessions. Without KUBECONFIG it reaches the cluster
`make cluster-up` keeps through a copy of its kubeconfig, as a foreign cluster would be. The
agent lives in a namespace of its own, deleted after."""
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from . import store
from .scale import percentile

PROJECT = "blackhole-bench-agent"
COMMAND = "uname -r"


class NodeShell(Protocol):
    """The node's shell a cluster lab's commands go through (ClusterLab.node_shell)."""
    def argv(self, command: str) -> list[str]: ...

    def run(self, command: str, timeout: float) -> object: ...


def spread(seconds: Sequence[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(seconds), 3), "p95_s": round(percentile(seconds, 0.95), 3),
            "max_s": round(max(seconds), 3)}


def timed(run: Callable[[], object]) -> float:
    started = time.monotonic()
    run()
    return time.monotonic() - started


def one_exec_each(shell: NodeShell) -> None:
    result = subprocess.run(shell.argv(COMMAND), input="", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def side_by_side(shell: NodeShell, threads: int = 4, each: int = 5) -> dict[str, float]:
    took = []

    def worker() -> None:
        for _ in range(each):
            took.append(timed(lambda: shell.run(COMMAND, timeout=60)))
    workers = [threading.Thread(target=worker) for _ in range(threads)]
    started = time.monotonic()
    for worker_thread in workers:
        worker_thread.start()
    for worker_thread in workers:
        worker_thread.join()
    return {**spread(took), "threads": threads, "commands": threads * each, "wall_s": round(time.monotonic() - started, 2)}


def main() -> None:
    from ..lab.cluster.agent import AgentShell, RemoteNode
    from ..lab.cluster.lab import ClusterLab
    from ..lab.cluster.node import ClusterNode
    count = int(os.environ.get("COMMANDS", "20"))
    with tempfile.TemporaryDirectory() as scratch:
        kubeconfig: str | Path | None = os.environ.get("KUBECONFIG")
        if not kubeconfig:
            kubeconfig = Path(scratch) / "kubeconfig"
            shutil.copy(ClusterNode().kubeconfig_path, kubeconfig)
        node = RemoteNode(kubeconfig)
        node.ensure_reachable()
        lab = ClusterLab(node, PROJECT)
        try:
            print(f"bench-node-agent: the agent on {node.pinned_node()} ...", flush=True)
            shell = lab.node_shell()
            if not isinstance(shell, AgentShell):           # a RemoteNode's lab runs its commands through its agent
                raise RuntimeError(f"bench-node-agent: the lab's node shell is {type(shell).__name__}, not the agent's")
            shell.run("true", timeout=120)                     # the first session's start, apart
            print(f"bench-node-agent: {count} commands, a kubectl exec each ...", flush=True)
            per_exec = spread([timed(lambda: one_exec_each(shell)) for _ in range(count)])
            print(f"bench-node-agent: {count} commands through the sessions ...", flush=True)
            per_session = spread([timed(lambda: shell.run(COMMAND, timeout=60)) for _ in range(count)])
            threads = side_by_side(shell)
        finally:
            lab.down()
    print(f"  a kubectl exec each: median {per_exec['median_s']} s, p95 {per_exec['p95_s']} s, max {per_exec['max_s']} s")
    print(f"  exec sessions:       median {per_session['median_s']} s, p95 {per_session['p95_s']} s, "
          f"max {per_session['max_s']} s")
    print(f"  4 threads at once:   median {threads['median_s']} s, p95 {threads['p95_s']} s, "
          f"{threads['commands']} commands in {threads['wall_s']} s, {shell.sessions.started} sessions started")
    path = store("node-agent", {"node": node.state(), "command": COMMAND, "commands": count,
                                "kubectl_exec_each": per_exec, "sessions": per_session, "threads": threads,
                                "sessions_started": shell.sessions.started})
    print(f"stored: {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main()
