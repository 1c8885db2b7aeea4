"""A cluster given only by its kubeconfig (LAB=kubernetes KUBECONFIG=<not cluster-up's>): no ssh to
its node, so the lab's node shell is a pod on the node, the node agent, entered with `kubectl
exec`. It is privileged and shares the node's PID namespace, so `nsenter -t 1` puts each command
in the node's own namespaces, and everything the lab does on a node runs as it does over the
cluster-up guest's ssh (node_shell.NodeShell): nsenter into a pod's container, nft in a pod's
network namespace, the IPVS table, kube-proxy's metrics page.

What such a cluster must give (each refused with one line when it does not): a Ready node the
lab's pods can all be put on (BLACKHOLE_NODE names one; else the first Ready node by name), the
right to run a privileged pod with the node's PID and network namespaces on it, the lab's images
on that node (pods never pull them), bash, nft, ip and ipvsadm on the node, containerd (ctr),
and kube-proxy in IPVS mode.

The agent lives in the lab's namespace and goes with it when the lab is taken down."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from ...errors import LabError
from ...settings import machine
from ..compose import REPO
from ..engine import JIFFIES_SCRIPT, config_hz, hz_from_jiffies
from ..shell_kernel import ShellKernel
from .agent_session import SessionPool
from .api import ApiError, KubeApi, node_ready, wait_for
from .faces import Shell
from .leftovers import owner_here
from .node import KUBE_PROXY_LOG, NodeNotUp
from .pods import CLIENT_IMAGE, lab_namespace

AGENT = "node-agent"
NODE_NAMESPACES = ["nsenter", "-t", "1", "-m", "-u", "-i", "-n", "-p", "--"]     # from the agent: PID 1's
AGENT_START_S = 600


def kubectl() -> str:
    """This host's kubectl, or the one ensure-kube.sh builds from the Go module proxy."""
    found = shutil.which("kubectl")
    if found:
        return found
    result = subprocess.run([str(REPO / "scripts" / "ensure-kube.sh"), "kubectl"], stdout=subprocess.PIPE, text=True)
    if result.returncode:           # its progress and its error went to stderr, as they came
        raise LabError(f"cluster: no kubectl on this host, and building it failed (exit {result.returncode})")
    return str(Path(result.stdout.split()[-1]) / "kubectl")


def agent_pod(namespace: str, node_name: str, image: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": AGENT, "namespace": namespace, "labels": {"blackhole-lab/role": AGENT}},
            "spec": {"nodeName": node_name, "hostPID": True, "hostNetwork": True,
                     "terminationGracePeriodSeconds": 0, "automountServiceAccountToken": False,
                     "tolerations": [{"operator": "Exists"}],
                     "containers": [{"name": AGENT, "image": image, "imagePullPolicy": "Never",
                                     "command": ["sleep", "infinity"],
                                     "securityContext": {"privileged": True}}]}}


class AgentShell:
    """ssh's face (argv, run, popen) over `kubectl exec` into the node agent: bash in the node's
    own namespaces. run() goes over long-lived exec sessions (agent_session.py); popen() is a
    process of its own, as long as what it runs."""

    def __init__(self, kubectl_path: str, kubeconfig: str | os.PathLike[str], namespace: str) -> None:
        self.kubectl, self.kubeconfig, self.namespace = kubectl_path, str(kubeconfig), namespace
        self.transport = [self.kubectl, "--kubeconfig", self.kubeconfig, "-n", self.namespace, "exec", "-i", AGENT,
                          "--"]
        self.sessions = SessionPool(self.transport, enter=True)

    def argv(self, command: str) -> list[str]:
        return [*self.transport, *NODE_NAMESPACES, "bash", "-c", command]

    def run(self, command: str, timeout: float = 60, check: bool = True,
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        result = self.sessions.run(command, timeout, stdin if stdin is not None else "")
        if check and result.returncode:
            raise LabError(f"cluster node (agent): `{command}` exited {result.returncode}: "
                           f"{result.stderr.strip()[-500:]}")
        return result

    def popen(self, command: str) -> subprocess.Popen[str]:
        return subprocess.Popen(self.argv(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def close(self) -> None:
        self.sessions.close()


class AgentEngine(ShellKernel):
    """The engine face of a node reached through its agent: its kernel and clock."""
    where = "cluster"
    ssh: AgentShell

    def __init__(self, shell: AgentShell, node_name: str) -> None:
        self.ssh, self.node_name = shell, node_name
        self.clock_offset_s, self.clock = 0.0, {}
        self._release: str | None = None
        self._hz: int | None = None
        self.hz_from: str | None = None

    def open_ssh(self) -> AgentShell:
        return self.ssh

    def kernel_release(self) -> str:
        if self._release is None:
            self._release = self._shell().run("uname -r", timeout=60).stdout.strip()
        return self._release

    def hz(self) -> int | None:
        """CONFIG_HZ from the node's /boot or /proc/config.gz; else its jiffies counted over 2 s
        (engine.hz_from_jiffies); None if neither says."""
        if self._hz is None:
            text = self._shell().run("cat /boot/config-$(uname -r) 2>/dev/null || zcat /proc/config.gz 2>/dev/null; true",
                                timeout=60).stdout
            self._hz = config_hz(text) if text.strip() else None
            self.hz_from = "the kernel's config" if self._hz else None
            if self._hz is None:
                self._hz = hz_from_jiffies(self._shell().run(JIFFIES_SCRIPT, timeout=60, check=False).stdout)
                self.hz_from = "jiffies counted over 2 s (/proc/timer_list)" if self._hz else None
        return self._hz

    def has_qdisc(self, kind: str) -> bool:
        """Tried in a throwaway network namespace of the node (its own links are not touched)."""
        return self._succeeds(f"unshare --net tc qdisc add dev lo root {kind}")

    def problem(self) -> str | None:
        """Why the node's shell does not answer now (health.problems asks when a check failed), or None."""
        try:
            self._shell().run("true", timeout=30)
        except subprocess.TimeoutExpired:
            return f"the node agent ({AGENT}) does not answer kubectl exec within 30 s"
        except LabError as exc:
            return f"the node agent ({AGENT}): {exc}"
        return None

    def describe(self) -> dict[str, Any]:
        return {"where": self.where, "kernel": self.kernel_release(), "hz": self.hz(), "hz_from": self.hz_from,
                "node": self.node_name,
                "transport": f"kubectl exec into the privileged pod {AGENT} (the node's namespaces)",
                "clock_at_start": self.clock}

    def collect(self, directory: str | os.PathLike[str]) -> None:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        info = {"describe": self.describe()}
        try:
            info["clock_at_end"] = self.measure_clock()
        except (LabError, subprocess.TimeoutExpired, ValueError):
            pass
        (directory / "node.json").write_text(json.dumps(info, indent=1, default=str) + "\n")


class RemoteNode:
    """The ClusterNode face (api, state, engine_for, shell's helpers) of a cluster given by a kubeconfig."""

    def __init__(self, kubeconfig: str | os.PathLike[str], node_name: str | None = None, out: IO[str] = sys.stdout) -> None:
        self.kubeconfig_path, self.out = Path(kubeconfig), out
        self.node_name = node_name or machine.cluster_node()
        self._api: KubeApi | None = None
        self._engines: dict[str, AgentEngine] = {}               # project -> its AgentEngine

    def api(self) -> KubeApi:
        if self._api is None:
            self._api = KubeApi.from_kubeconfig(self.kubeconfig_path)
        return self._api

    def running(self) -> bool:
        return self.api().ready()

    def ensure_reachable(self) -> None:
        if not self.running():
            raise NodeNotUp(f"LAB=kubernetes: the API server of KUBECONFIG={self.kubeconfig_path} "
                            f"({self.api().server}) does not answer /readyz")

    def pinned_node(self) -> str:
        """The node the lab's pods and its agent go on."""
        if self.node_name is None:
            nodes = sorted(self.api().get("/api/v1/nodes")["items"], key=lambda n: n["metadata"]["name"])
            ready = [n["metadata"]["name"] for n in nodes if node_ready(n) and not n["spec"].get("unschedulable")]
            if not ready:
                raise LabError(f"cluster: no Ready node in KUBECONFIG={self.kubeconfig_path}'s cluster")
            self.node_name = ready[0]
        return self.node_name

    def state(self) -> dict[str, Any]:
        return {"server": self.api().server, "kubeconfig": str(self.kubeconfig_path), "node": self.pinned_node()}

    def engine_for(self, project: str) -> "AgentEngine":
        """The node agent in the lab's namespace (made here if the lab has not yet), running."""
        api, node = self.api(), self.pinned_node()
        try:
            api.create_unless_there("/api/v1/namespaces", lab_namespace(project, owner_here()))
            api.create_unless_there(f"/api/v1/namespaces/{project}/pods", agent_pod(project, node, CLIENT_IMAGE))
        except ApiError as exc:
            raise LabError(f"cluster: making the node agent on {node} was refused: {exc}") from None
        wait_for(f"the node agent on {node} to run", lambda: _running(api, project), AGENT_START_S, poll_s=1.0)
        self._engines[project] = AgentEngine(AgentShell(kubectl(), self.kubeconfig_path, project), node)
        return self._engines[project]

    def release(self, project: str) -> None:
        """The lab in namespace project is going: end its agent's exec sessions."""
        engine = self._engines.pop(project, None)
        if engine is not None:
            engine.ssh.close()

    def _kube_proxy_pod(self) -> dict[str, Any] | None:
        """kube-proxy's pod on the lab's node (kube-system, k8s-app=kube-proxy, as kubeadm and most
        installers run it), or None: a kube-proxy run as a process of the node's."""
        pods = self.api().get("/api/v1/namespaces/kube-system/pods?labelSelector=k8s-app%3Dkube-proxy"
                              f"&fieldSelector=spec.nodeName%3D{self.pinned_node()}")["items"]
        return pods[0] if pods else None

    def kube_proxy_log(self, shell: Shell) -> str:
        pod = self._kube_proxy_pod()
        if pod is not None:
            return self.api().request(f"/api/v1/namespaces/kube-system/pods/{pod['metadata']['name']}/log"
                                      "?timestamps=true", timeout=60)
        return shell.run(f"journalctl -u kube-proxy -o short-iso --no-pager 2>/dev/null | grep . || "
                         f"cat {KUBE_PROXY_LOG} 2>/dev/null; true", timeout=60).stdout

    def kube_proxy_version(self, shell: Shell) -> str:
        pod = self._kube_proxy_pod()
        if pod is not None:
            return pod["spec"]["containers"][0]["image"]
        return shell.run("\"$(readlink /proc/$(pgrep -xo kube-proxy)/exe)\" --version 2>/dev/null; true",
                         timeout=60).stdout.strip()


def _running(api: KubeApi, namespace: str) -> bool:
    status = api.get(f"/api/v1/namespaces/{namespace}/pods/{AGENT}").get("status", {})
    for waiting in (s.get("state", {}).get("waiting") for s in status.get("containerStatuses") or ()):
        if waiting and waiting.get("reason") in ("ErrImageNeverPull", "CreateContainerConfigError",
                                                 "CreateContainerError"):
            raise LabError(f"cluster: the node agent cannot start: {waiting['reason']}: "
                           f"{waiting.get('message', '')[:300]} (the lab's images must be on the node)")
    return status.get("phase") == "Running"
