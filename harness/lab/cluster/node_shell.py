"""Commands on the cluster's node over its guest's ssh: in the node's own namespaces (where
kube-proxy programs IPVS, the lab's director) or in a pod's container, entered with `nsenter`
(one process; `crictl exec`'s runc exec costs a TCG guest a good part of a second). A command
entered that way has root's capabilities, which the pod's own processes may lack."""
import shlex
from collections.abc import Sequence

from ...errors import LabError
from ...lab_commands import Ran
from .faces import NodeEngine


class NodeShell:
    def __init__(self, engine: NodeEngine) -> None:
        """engine: the node's guest (guest.engine.GuestEngine, running)."""
        self.engine = engine
        self._pids: dict[str, int] = {}              # container id -> its PID 1 on the node

    def run(self, command: str, timeout: float = 60, check: bool = True, stdin: str | None = None) -> Ran:
        result = self.engine.open_ssh().run(command, timeout=timeout, check=False, stdin=stdin)
        if check and result.returncode:
            raise LabError(f"cluster node: `{command}` exited {result.returncode}: {result.stderr.strip()[-500:]}")
        return result

    def argv(self, command: str) -> list[str]:
        """The local command line that runs a node shell command."""
        return self.engine.open_ssh().argv(command)

    def pid(self, container_id: str) -> int:
        """The container's PID 1 on the node, from containerd's task list."""
        if container_id not in self._pids:
            self._pids.update(running_tasks(self.run("ctr -n k8s.io task ls", timeout=60).stdout))
        if container_id not in self._pids:
            raise LabError(f"cluster node: no running task for container {container_id[:12]}")
        return self._pids[container_id]

    def in_container(self, container_id: str, command: Sequence[str]) -> str:
        """The node shell command that runs command (a list) in every namespace of the container,
        from its root and working directory."""
        return f"nsenter --target {self.pid(container_id)} --all --root --wd -- {shlex.join(command)}"

    def stop(self, container_id: str, grace_s: float) -> None:
        """SIGTERM to the container's PID 1, SIGKILL after grace_s: a PID 1 without a handler
        ignores SIGTERM, even from the node."""
        pid = self.pid(container_id)
        self.run(f"kill -TERM {pid}; for _ in $(seq 1 {int(grace_s * 10)}); do sleep 0.1; "
                 f"kill -0 {pid} 2>/dev/null || exit 0; done; kill -KILL {pid}", timeout=60)

    def wait_gone(self, container_id: str, limit_s: float) -> float:
        """Until the container's PID 1 has ended (polled every 50 ms on the node); the node's
        clock then."""
        pid = self.pid(container_id)
        polls = int(limit_s * 20)
        result = self.run(f"for _ in $(seq 1 {polls}); do kill -0 {pid} 2>/dev/null || exec date +%s.%N; "
                          "sleep 0.05; done; exit 1", timeout=limit_s + 60, check=False)
        if result.returncode:
            raise LabError(f"cluster node: container {container_id[:12]} (PID {pid}) still runs after {limit_s:g} s")
        self._pids.pop(container_id, None)
        return float(result.stdout.split()[-1])


def running_tasks(listing: str) -> dict[str, int]:
    """{container id: PID} of the running tasks in `ctr task ls` output."""
    tasks = {}
    for line in listing.splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 3 and fields[2] == "RUNNING" and fields[1].isdigit():
            tasks[fields[0]] = int(fields[1])
    return tasks
