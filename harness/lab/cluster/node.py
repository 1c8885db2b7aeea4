"""ClusterNode: a single-node Kubernetes cluster in a guest that outlives the command that started
it (`make cluster-up`), found again by its home (`make cluster-down`, `make cluster-status`).

Up: the guest boots a disk that holds the node's programs and images (built on this host:
guest/node_images.py) with the API server's port forwarded to this host's loopback; the node's
keys and settings (assets.py) go in over ssh; node-start launches etcd and the API server, then,
once it is ready, the rest, each under its supervisor; and the command returns once the node is
Ready, the default service account exists and kube-proxy (IPVS) has programmed the API server's
Service: each step timed, in home/cluster.json. A step that fails or an interrupt stops the guest
and leaves nothing behind.
"""
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ...databases import DATABASES, DEFAULT_DATABASE
from ...errors import LabError
from ..compose import REPO
from ..guest.node_images import NodeContents
from ..images import host_image_keys, save_host_images
from . import assets
from .api import KubeApi, node_ready, wait_for
from .faces import Shell
from .node_shell import NodeShell

if TYPE_CHECKING:
    from ..guest.engine import GuestEngine

HOME = REPO / ".lab" / "cluster"
STATE_FILE = "cluster.json"
DEFAULT_KERNEL = "6.12"
KUBE_PROXY_LOG = "/var/log/cluster/kube-proxy.log"     # files/node-start's
API_READY_S = 600            # launch to /readyz (TCG, one vCPU: 53 s in the spike)
NODE_READY_S = 600
# The lab's images a pod runs (clients, servers) besides the database's; the director's and the
# control planes' stay out (the cluster has its own kube-proxy).
POD_IMAGES = ("blackhole-lab/client:dev", "blackhole-lab/web:dev")


class NodeNotUp(LabError):
    """No cluster is up where one was asked for."""


def pod_images(database: str = DEFAULT_DATABASE) -> list[str]:
    """The images a node's containerd holds: each is ~0.3-0.8 GB, twice on its disk (the blobs and
    unpacked), so only the clients', the web servers' and one database engine's."""
    return [*POD_IMAGES, DATABASES[database].image]


def node_contents(images: Sequence[str]) -> NodeContents:
    """A node's programs and images, for its guest's disk (guest/node_images.py)."""
    keys = host_image_keys()
    pause_key = assets.build_pause_image()
    keys = {name: pause_key if name == assets.PAUSE_IMAGE else keys[name] for name in images}

    def save(path: Path) -> None:
        subprocess.run(["docker", "save", "-o", str(path), *images], check=True, timeout=900)
    return NodeContents(keys, save, tuple(assets.kube_programs()), tuple(assets.debian_packages()))


class ClusterNode:
    def __init__(self, home: str | os.PathLike[str] = HOME, kernel: str = DEFAULT_KERNEL, out: IO[str] = sys.stdout,
                 allowed_unsafe_sysctls: Iterable[str] = assets.ALLOWED_UNSAFE_SYSCTLS) -> None:
        """allowed_unsafe_sysctls: the kubelet's allowedUnsafeSysctls (default: every TCP knob a
        cell can set)."""
        self.home, self.kernel, self.out = Path(home), kernel, out
        self.allowed_unsafe_sysctls = tuple(allowed_unsafe_sysctls)
        self.guest_home = self.home / "guest"
        self.kubeconfig_path = self.home / "kubeconfig"

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # -- what is there ------------------------------------------------------------
    def state(self) -> dict[str, Any] | None:
        path = self.home / STATE_FILE
        return json.loads(path.read_text()) if path.exists() else None

    def _engine(self) -> "GuestEngine | None":
        from ..guest.engine import GuestEngine
        from ..guest.kept import GUEST_FILE
        if not (self.guest_home / GUEST_FILE).exists():
            return None
        return GuestEngine.attach(self.guest_home, out=self.out)

    def running(self) -> bool:
        engine = self._engine()
        return engine is not None and engine.running() and self.state() is not None

    def ensure_reachable(self) -> None:
        if not self.running():
            raise NodeNotUp("LAB=kubernetes: no cluster is up; `make cluster-up` starts one (about 3 minutes)")

    def pinned_node(self) -> str | None:
        """The node the lab's pods must go on: None, the cluster has one."""
        return None

    def _running_engine(self) -> "GuestEngine":
        engine = self._engine()
        if engine is None or not engine.running() or self.state() is None:
            raise NodeNotUp("cluster: none is up (`make cluster-up` starts one)")
        return engine

    def api(self) -> KubeApi:
        self._running_engine()
        state = self.state()
        if state is None:
            raise NodeNotUp("cluster: none is up (`make cluster-up` starts one)")
        return KubeApi(state["server"], assets.TOKEN, self.home / "opt" / "apiserver.crt")

    def status(self) -> dict[str, Any]:
        """What is up, as a dict: the node's readiness asked of the API server now."""
        state = self.state()
        if state is None or not self.running():
            return {"up": False}
        api = self.api()
        node = api.get(f"/api/v1/nodes/{assets.NODE_NAME}")
        return {"up": True, "kubeconfig": str(self.kubeconfig_path), "server": state["server"],
                "kernel": state["kernel"], "node_ready": node_ready(node), "timings": state["timings"]}

    # -- up and down ----------------------------------------------------------------
    def up(self) -> dict[str, Any]:
        state = self.state()
        if self.running() and state is not None:
            self.say(f"cluster: already up (KUBECONFIG={self.kubeconfig_path})")
            return state
        self.down(quiet=True)                      # what a crashed or interrupted one left
        from ..guest.engine import GuestEngine
        timings: dict[str, Any] = {}
        started = time.monotonic()
        self.home.mkdir(parents=True, exist_ok=True)
        engine = None
        try:
            self.say("cluster: the Kubernetes programs (built from the Go module proxy once per machine) ...")
            opt = assets.prepare(self.home / "opt", self.allowed_unsafe_sysctls)
            images = [assets.PAUSE_IMAGE, *pod_images()]
            timings["assets_s"] = _since(started)
            engine = GuestEngine(self.kernel, image_keys=host_image_keys, save_images=save_host_images,
                                 out=self.out, home=self.guest_home, forwards=(assets.API_PORT,),
                                 node_images=node_contents(images))
            step = time.monotonic()
            engine.ensure_started(say=self.say)
            ssh, vm = engine.open_ssh(), engine.running_vm()
            timings["guest_s"], timings["guest"] = _since(step), dict(engine.timings)
            step = time.monotonic()
            ssh.push_directory(opt, assets.GUEST_DIR)
            timings["push_s"] = _since(step)
            self.say("cluster: starting etcd and the API server ...")
            ssh.run(f"{assets.GUEST_DIR}/node-start control", timeout=120)
            server = f"https://127.0.0.1:{engine.forwarded_port(assets.API_PORT)}"
            api = KubeApi(server, assets.TOKEN, opt / "apiserver.crt")

            def alive() -> str | None:
                return None if vm.alive() else "the guest's QEMU exited"

            timings["api_ready_s"] = wait_for("the API server's /readyz", api.ready, API_READY_S, alive)
            self.say(f"cluster: API server ready after {timings['api_ready_s']} s; starting containerd, kubelet, "
                     "the controller-manager, the scheduler, kube-proxy (ipvs) ...")
            ssh.run(f"{assets.GUEST_DIR}/node-start node", timeout=120)
            api_ready_at = time.monotonic()
            wait_for(f"the node's containerd to list {', '.join(images)} (its disk holds them)",
                     lambda: all(f"docker.io/{name}" in ssh.run("ctr -n k8s.io images ls -q", check=False).stdout
                                 for name in images), NODE_READY_S, alive)
            timings["node_ready_s"] = wait_for("the node to be Ready", lambda: node_ready(
                api.get(f"/api/v1/nodes/{assets.NODE_NAME}")), NODE_READY_S, alive)
            timings["service_account_s"] = wait_for("the default service account", lambda: api.get(
                "/api/v1/namespaces/default/serviceaccounts/default"), NODE_READY_S, alive)
            timings["kube_proxy_s"] = wait_for(
                "kube-proxy to program the API server's Service in IPVS",
                lambda: f"{assets.API_SERVICE_IP}:443" in ssh.run("ipvsadm -Ln", check=False).stdout,
                NODE_READY_S, alive)
            timings["node_s"] = _since(api_ready_at)
            timings["total_s"] = _since(started)
        except BaseException:
            self.say("cluster: up failed or was interrupted; stopping its guest")
            if engine is not None:
                self._save_logs(engine)
                engine.stop()
            shutil.rmtree(self.home, ignore_errors=True)
            raise
        ca = opt / "apiserver.crt"
        self.kubeconfig_path.write_text(json.dumps(assets.kubeconfig(server, certificate_authority=str(ca)), indent=1))
        kernel = engine.booted_kernel()
        state = {"kernel": kernel.release, "package": kernel.package, "server": server,
                 "allowed_unsafe_sysctls": list(self.allowed_unsafe_sysctls),
                 "timings": timings, "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        (self.home / STATE_FILE).write_text(json.dumps(state, indent=1) + "\n")
        self.say(f"cluster: up in {timings['total_s']} s (guest {timings['guest_s']} s, API server "
                 f"{timings['api_ready_s']} s, node Ready and kube-proxy {timings['node_s']} s later); "
                 f"KUBECONFIG={self.kubeconfig_path}")
        return state

    def down(self, quiet: bool = False) -> bool:
        """Stop the guest (everything in the cluster goes with it) and forget it. True if one was there."""
        engine = self._engine()
        there = engine is not None and engine.running()
        if engine is not None:
            engine.stop()
        shutil.rmtree(self.home, ignore_errors=True)
        if not quiet:
            self.say("cluster: down (its guest stopped)" if there else "cluster: none was up")
        return there

    def shell(self) -> NodeShell:
        """The node's shell (node_shell.NodeShell), over its guest's ssh."""
        return NodeShell(self._running_engine())

    def engine_for(self, project: str) -> "GuestEngine":
        """The engine face a lab in namespace project uses on this node: the guest's."""
        return self._running_engine()

    def release(self, project: str) -> None:
        """The lab in namespace project is going; the guest's ssh stays for the node's other work."""

    def kube_proxy_log(self, shell: Shell) -> str:
        return shell.run(f"cat {KUBE_PROXY_LOG}", timeout=60).stdout

    def kube_proxy_version(self, shell: Shell) -> str:
        return shell.run(f"{assets.GUEST_DIR}/bin/kube-proxy --version", timeout=60).stdout.strip()

    def guest_command(self, command: str, timeout: float = 60) -> str:
        """A shell command on the node (as root), its output; LabError if it fails."""
        return self._running_engine().open_ssh().run(command, timeout=timeout).stdout

    # -- helpers -------------------------------------------------------------------
    def _save_logs(self, engine: "GuestEngine") -> None:
        """The components' logs and timeline, beside the home for a failed up to be read after."""
        if engine.vm is None or not engine.running():
            return
        keep = REPO / "results" / "cluster-failed"
        keep.mkdir(parents=True, exist_ok=True)
        try:
            text = engine.open_ssh().run("tail -n 80 /var/log/cluster/*", check=False, timeout=60).stdout
        except subprocess.TimeoutExpired:
            return
        (keep / "logs.txt").write_text(text)
        self.say(f"cluster: the components' last log lines are in {keep / 'logs.txt'}")


def _since(started: float) -> float:
    return round(time.monotonic() - started, 1)
