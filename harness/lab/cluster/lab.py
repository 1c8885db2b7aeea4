"""ClusterLab: the lab as pods in a namespace of its own on a Kubernetes cluster (the single-node
cluster `make cluster-up` keeps in a guest), behind the same face as the Compose labs (base.py).

  nodes      each server and each client cell is a pod made from the lab's own Compose service
             (from_compose.py); the director is the node itself, where the cluster's kube-proxy
             programs IPVS: exec(director) runs on the node, logs(director) is kube-proxy's log
  the VIP    one Service whose ClusterIP is the VIP (vip_address()), port 3306 to the mysql
             servers and 80 to the web servers behind it (label BEHIND_VIP): at first those
             compose.yaml's director starts with (INITIAL_BACKENDS)
  exec       `nsenter` into every namespace of the pod's container, on the node over ssh: one
             process, where `crictl exec`'s runc exec costs a TCG guest a good part of a second.
             It runs with root's capabilities, which the pod's own processes may not have
  addresses  a pod has one address on the cluster's pod network: it stands for both the front
             and the back network
  clock      the node's, which its pods stamp their records with (the guest's clock offset,
             measured again when the lab comes up)
"""
import shlex
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ...databases.base import DatabaseEngine
from ...databases.base import database as database_named
from ...errors import LabError
from ...faults.base import Fault
from ...topology import BACK, DIRECTOR, FRONT, SERVERS
from ..base import ClientCell, ExecResult, Lab
from ..compose import REPO
from . import allows, fault_support, health, making, pod_status, record
from .api import ApiError, KubeApi, wait_for
from .director import ClusterCommands, ClusterDirector
from .faces import ClusterNodes, NodeCommands, NodeEngine
from .leftovers import owner_here
from .making import API_POLL_S, POD_START_S, VIP_SERVICE
from .node_shell import NodeShell
from .pod_faults import ClusterPods
from .pods import lab_namespace

NAMESPACE_GONE_S = 300


class ClusterLab(Lab):
    cell_namespaces = "container"
    costly_execs = True          # its node is a guest

    def __init__(self, node: ClusterNodes, project: str, cells: Iterable[ClientCell] = (),
                 servers: Iterable[str] | None = None, database: DatabaseEngine | None = None,
                 workdir: Path | None = None, env: Mapping[str, str] | None = None) -> None:
        """node: the cluster (cluster.ClusterNode, up); project: the namespace the lab's objects
        live in; cells, servers, database, env: as ComposeLab's."""
        self.node, self.project = node, project
        self.cells = tuple(cells)
        self.user_env = dict(env or {})
        self.servers = tuple(SERVERS if servers is None else servers)
        self.database = database or database_named()
        self.workdir = workdir or REPO / ".lab" / f"{project}-cluster"
        self._engine: NodeEngine | None = None
        self._api: KubeApi | None = None
        self._shell: NodeShell | None = None
        self._pods: dict[str, dict[str, Any]] = {}   # service -> its pod's status (pod_status.summary), as last read
        self.restarts_asked: dict[str, int] = {}     # service -> restarts the lab made
        self._pod_faults: ClusterPods | None = None
        self._kept_logs: dict[str, str] = {}          # service -> its pod's log, read before the pod was deleted
        self._vip: str | None = None

    # -- the cluster -------------------------------------------------------------
    @property
    def engine(self) -> NodeEngine:
        if self._engine is None:
            self._engine = self.node.engine_for(self.project)
        return self._engine

    @property
    def shell(self) -> NodeShell:
        if self._shell is None:
            self._shell = NodeShell(self.engine)
        return self._shell

    @property
    def api(self) -> KubeApi:
        if self._api is None:
            self._api = self.node.api()
        return self._api

    def path(self, kind: str, name: str = "") -> str:
        """The API path of the lab's namespaced core objects (pods, services, events)."""
        return f"/api/v1/namespaces/{self.project}/{kind}" + (f"/{name}" if name else "")

    def pod_services(self) -> list[str]:
        """The services that are pods: every server and cell's, not the director."""
        return [*self.servers, *(cell.service for cell in self.cells)]

    # -- lifecycle -----------------------------------------------------------------
    def up(self, wait: bool = True, preflight: Callable[[Any], None] | None = None,
       timeout_s: float | None = None) -> None:
        """Nothing is left when it fails or is interrupted, not even a refusal's node agent (agent.py)."""
        try:
            self._up(wait, preflight, POD_START_S if timeout_s is None else timeout_s)
        except BaseException:
            self.down()
            raise

    def _up(self, wait: bool, preflight: Callable[[Any], None] | None, timeout_s: float) -> None:
        engine = self.engine
        if preflight:
            preflight(self.kernel)
        mode = self.director().kube_proxy_mode()
        if mode != "ipvs":
            raise LabError(f"cluster: the node's kube-proxy runs in {mode or 'no known'} mode; the lab's director is "
                           "kube-proxy in IPVS mode (--proxy-mode ipvs)")
        definitions = making.rendered_services(self)
        pinned = self.node.pinned_node()
        nodes = [n for n in allows.what_nodes_allow(self.api) if pinned in (None, n.node)]
        refused = allows.pod_refusals(nodes, {
            service: definitions[service].get("sysctls") or {} for service in self.pod_services()})
        if refused:
            raise LabError(f"cluster: {refused[0]}" + (f" ({len(refused) - 1} more refused)" if len(refused) > 1 else ""))
        engine.clock = engine.measure_clock()
        engine.clock_offset_s = engine.clock["offset_s"]
        self.api.create_unless_there("/api/v1/namespaces", lab_namespace(self.project, owner_here()))   # the agent's may be there
        self._vip = making.make(self, definitions)
        if wait:
            self.wait_healthy(max(timeout_s, POD_START_S))

    def read_pod(self, service: str) -> dict[str, Any]:
        """pod_status.summary of the service's pod, read from the API server now ({} if none)."""
        try:
            pod = self.api.get(self.path("pods", service))
        except ApiError as exc:
            if exc.status == 404:
                self._pods.pop(service, None)
                return {}
            raise
        self._pods[service] = pod_status.summary(pod)
        return self._pods[service]

    def wait_healthy(self, timeout_s: float = 180, only: Iterable[str] | None = None,
                 stopping: threading.Event | None = None) -> None:
        """Until each pod (only: of these services) is ready: a server once its health check first
        passed and the lab's gate is on, a cell once its container runs."""
        health.wait_healthy(self, timeout_s, only, stopping)

    def down(self) -> None:
        """Delete the lab's namespace (everything in it goes with it) and wait until it is gone;
        nothing to do when the cluster or the namespace is not there."""
        if self._engine is not None:
            self.node.release(self.project)
        try:
            api = self.api
        except LabError:
            return
        try:
            api.delete(f"/api/v1/namespaces/{self.project}", grace_period_s=0)
        except ApiError as exc:
            if exc.status != 404:
                raise
            return
        finally:
            self._pods, self._vip, self._shell = {}, None, None
        wait_for(f"namespace {self.project} to be deleted", lambda: api.gone(f"/api/v1/namespaces/{self.project}"),
                 NAMESPACE_GONE_S, poll_s=API_POLL_S)

    def problems(self) -> dict[str, str]:
        """{service: what is wrong} for each pod that is gone, not running, or was restarted by
        the kubelet rather than by the lab; and kube-proxy (the director) not running."""
        return health.problems(self)

    def services(self) -> list[str]:
        return sorted([DIRECTOR, *self.pod_services()])

    def restart(self, service: str, timeout_s: float = 120) -> None:
        """The container's PID 1 ends (SIGTERM, SIGKILL after the grace, as `compose restart`) and
        the kubelet starts it again in the same pod; returns once the new one runs."""
        self.pods().restart(service, timeout_s)

    # -- nodes ---------------------------------------------------------------------
    def _shell_command(self, service: str, command: Sequence[str]) -> str:
        """The node's shell command that runs command in the service's container (the director's:
        on the node itself)."""
        if service == DIRECTOR:
            return shlex.join(command)
        pod = self._pods.get(service) or {}
        if not pod_status.running(pod):
            pod = self.read_pod(service)
        if not pod.get("id"):
            raise LabError(f"{service}: no running container in the lab's namespace {self.project}")
        return self.shell.in_container(pod["id"], command)

    def exec(self, service: str, command: Sequence[str], check: bool = True, timeout: float = 60,
         stdin: str | None = None) -> ExecResult:
        result = self.shell.run(self._shell_command(service, command), timeout=timeout, check=False,
                                stdin=stdin if stdin is not None else "")
        done = ExecResult(result.returncode, result.stdout, result.stderr)
        if check and result.returncode:
            raise done.failed(service, command)
        return done

    def spawn(self, service: str, command: Sequence[str], stdout: Any = subprocess.PIPE) -> subprocess.Popen[str]:
        return subprocess.Popen(self.shell.argv(self._shell_command(service, command)), stdin=subprocess.PIPE,
                                stdout=stdout, stderr=subprocess.PIPE, text=True, bufsize=1, start_new_session=True)

    def placement(self, service: str) -> tuple[str, str | None]:
        return service, None

    def logs(self, service: str) -> str:
        """The pod's log, timestamped, as the kubelet kept it; the director's: kube-proxy's."""
        if service == DIRECTOR:
            return self.node.kube_proxy_log(self.shell)
        try:
            return self._pod_log(service)
        except ApiError as exc:
            if exc.status == 404 and service in self._kept_logs:
                return self._kept_logs[service]
            raise

    def keep_log(self, service: str) -> None:
        """Read the pod's log now, for logs() to give once the pod is deleted."""
        try:
            self._kept_logs[service] = self._pod_log(service)
        except ApiError as exc:
            if exc.status != 404:
                raise

    def _pod_log(self, service: str) -> str:
        return self.api.request(self.path("pods", service) + "/log?timestamps=true", timeout=60)

    def networks_of(self, service: str) -> dict[str, str]:
        address: str | None
        if service == DIRECTOR:
            address = self.shell.run("ip -4 -o addr show dev eth0", timeout=30).stdout.split()[3].split("/")[0]
        else:
            address = (self._pods.get(service) or {}).get("ip") or self.read_pod(service).get("ip")
        if not address:
            raise LabError(f"no running pod for service {service!r}")
        return {FRONT: address, BACK: address}

    # -- the director: the node's kube-proxy ------------------------------------------
    def director(self, service: str = DIRECTOR) -> ClusterDirector:
        return ClusterDirector(self, service)

    def director_commands(self) -> ClusterCommands:
        return ClusterCommands(self)

    def directors_programmed_by_themselves(self) -> tuple[str, ...]:
        return (DIRECTOR,)

    def pods(self) -> ClusterPods:
        if self._pod_faults is None:
            self._pod_faults = ClusterPods(self)
        return self._pod_faults

    def refusal(self, fault: Fault) -> str | None:
        return fault_support.refusal(self, fault)

    def vip_address(self) -> str:
        """The VIP: the ClusterIP of the lab's Service."""
        if self._vip is None:
            self._vip = self.api.get(self.path("services", VIP_SERVICE))["spec"]["clusterIP"]
        return self._vip

    def vip_address_known(self) -> str | None:
        """The VIP if this lab has read it already (describe() asks the API server nothing for it)."""
        return self._vip

    # -- the place -----------------------------------------------------------------
    def now(self) -> float:
        return time.time() + self.engine.clock_offset_s

    @property
    def datapath(self) -> str:
        return "ipvs"

    @property
    def kernel(self) -> NodeEngine:
        return self.engine

    def describe(self) -> dict[str, Any]:
        return record.describe(self)

    def node_shell(self) -> NodeCommands:
        """The shell on the node this lab's commands go through (the node agent's sessions, or
        the guest's ssh): what `make bench-node-agent` times."""
        return self.engine.open_ssh()

    keeps = "the cluster's events and its node"

    def keep_evidence(self, directory: Path) -> None:
        record.keep_evidence(self, directory)
