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
import json
import shlex
import subprocess
import time

from ...databases.base import database as database_named
from ...errors import LabError
from ...topology import BACK, DIRECTOR, FRONT, SERVERS
from ..base import ExecResult, Lab
from ..compose import REPO
from . import allows, fault_support, health, making, pod_status
from .api import ApiError, wait_for
from .director import ClusterCommands, ClusterDirector
from .node_shell import NodeShell
from .pod_faults import ClusterPods
from .leftovers import owner_here
from .pods import lab_namespace
from .making import API_POLL_S, POD_START_S, VIP_SERVICE

NAMESPACE_GONE_S = 300
RESTART_GRACE_S = 3             # as the Compose labs' `restart --timeout 3`


class ClusterLab(Lab):
    cell_namespaces = "container"
    costly_execs = True          # its node is a guest

    def __init__(self, node, project, cells=(), servers=None, database=None, workdir=None, env=None):
        """node: the cluster (cluster.ClusterNode, up); project: the namespace the lab's objects
        live in; cells, servers, database, env: as ComposeLab's."""
        self.node, self.project = node, project
        self.cells = tuple(cells)
        self.user_env = dict(env or {})
        self.servers = tuple(SERVERS if servers is None else servers)
        self.database = database or database_named()
        self.workdir = workdir or REPO / ".lab" / f"{project}-cluster"
        self._engine = self._api = self._shell = None
        self._pods = {}                  # service -> its pod's status (pod_status.summary), as last read
        self.restarts_asked = {}        # service -> restarts the lab made
        self._pod_faults = None
        self._kept_logs = {}             # service -> its pod's log, read before the pod was deleted
        self._vip = None

    # -- the cluster -------------------------------------------------------------
    @property
    def engine(self):
        if self._engine is None:
            self._engine = self.node.engine_for(self.project)
        return self._engine

    @property
    def shell(self):
        if self._shell is None:
            self._shell = NodeShell(self.engine)
        return self._shell

    @property
    def api(self):
        if self._api is None:
            self._api = self.node.api()
        return self._api

    def path(self, kind, name=""):
        """The API path of the lab's namespaced core objects (pods, services, events)."""
        return f"/api/v1/namespaces/{self.project}/{kind}" + (f"/{name}" if name else "")

    def pod_services(self):
        """The services that are pods: every server and cell's, not the director."""
        return [*self.servers, *(cell.service for cell in self.cells)]

    # -- lifecycle -----------------------------------------------------------------
    def up(self, wait=True, preflight=None, timeout_s=None):
        """Nothing is left when it fails or is interrupted, not even a refusal's node agent (agent.py)."""
        try:
            self._up(wait, preflight, POD_START_S if timeout_s is None else timeout_s)
        except BaseException:
            self.down()
            raise

    def _up(self, wait, preflight, timeout_s):
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

    def read_pod(self, service):
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

    def wait_healthy(self, timeout_s=180, only=None, stopping=None):
        """Until each pod (only: of these services) is ready: a server once its health check first
        passed and the lab's gate is on, a cell once its container runs."""
        health.wait_healthy(self, timeout_s, only, stopping)

    def down(self):
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

    def problems(self):
        """{service: what is wrong} for each pod that is gone, not running, or was restarted by
        the kubelet rather than by the lab; and kube-proxy (the director) not running."""
        return health.problems(self)

    def services(self):
        return sorted([DIRECTOR, *self.pod_services()])

    def restart(self, service, timeout_s=120):
        """The container's PID 1 ends (SIGTERM, SIGKILL after the grace, as `compose restart`) and
        the kubelet starts it again in the same pod; returns once the new one runs."""
        before = self.read_pod(service)
        if not before.get("id"):
            raise LabError(f"{service}: no container to restart")
        self.restarts_asked[service] = before["restarts"] + 1
        self.shell.stop(before["id"], RESTART_GRACE_S)

        def new_one_runs():
            pod = self.read_pod(service)
            return pod.get("id") not in ("", before["id"]) and pod_status.running(pod)
        wait_for(f"{service} to run again", new_one_runs, timeout_s, poll_s=API_POLL_S)

    # -- nodes ---------------------------------------------------------------------
    def _shell_command(self, service, command):
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

    def exec(self, service, command, check=True, timeout=60, stdin=None):
        result = self.shell.run(self._shell_command(service, command), timeout=timeout, check=False,
                                stdin=stdin if stdin is not None else "")
        done = ExecResult(result.returncode, result.stdout, result.stderr)
        if check and result.returncode:
            raise done.failed(service, command)
        return done

    def spawn(self, service, command, stdout=subprocess.PIPE):
        return subprocess.Popen(self.shell.argv(self._shell_command(service, command)), stdin=subprocess.PIPE,
                                stdout=stdout, stderr=subprocess.PIPE, text=True, bufsize=1, start_new_session=True)

    def placement(self, service):
        return service, None

    def logs(self, service):
        """The pod's log, timestamped, as the kubelet kept it; the director's: kube-proxy's."""
        if service == DIRECTOR:
            return self.node.kube_proxy_log(self.shell)
        try:
            return self._pod_log(service)
        except ApiError as exc:
            if exc.status == 404 and service in self._kept_logs:
                return self._kept_logs[service]
            raise

    def keep_log(self, service):
        """Read the pod's log now, for logs() to give once the pod is deleted."""
        try:
            self._kept_logs[service] = self._pod_log(service)
        except ApiError as exc:
            if exc.status != 404:
                raise

    def _pod_log(self, service):
        return self.api.request(self.path("pods", service) + "/log?timestamps=true", timeout=60)

    def networks_of(self, service):
        if service == DIRECTOR:
            address = self.shell.run("ip -4 -o addr show dev eth0", timeout=30).stdout.split()[3].split("/")[0]
        else:
            address = (self._pods.get(service) or {}).get("ip") or self.read_pod(service).get("ip")
        if not address:
            raise LabError(f"no running pod for service {service!r}")
        return {FRONT: address, BACK: address}

    # -- the director: the node's kube-proxy ------------------------------------------
    def director(self, service=DIRECTOR):
        return ClusterDirector(self, service)

    def director_commands(self):
        return ClusterCommands(self)

    def directors_programmed_by_themselves(self):
        return (DIRECTOR,)

    def pods(self):
        if self._pod_faults is None:
            self._pod_faults = ClusterPods(self)
        return self._pod_faults

    def refusal(self, fault):
        return fault_support.refusal(self, fault)

    def vip_address(self):
        """The VIP: the ClusterIP of the lab's Service."""
        if self._vip is None:
            self._vip = self.api.get(self.path("services", VIP_SERVICE))["spec"]["clusterIP"]
        return self._vip

    # -- the place -----------------------------------------------------------------
    def now(self):
        return time.time() + self.engine.clock_offset_s

    @property
    def datapath(self):
        return "ipvs"

    @property
    def kernel(self):
        return self.engine

    def describe(self):
        version = self.api.get("/version")
        images = {service: pod.get("image") for service in self.pod_services()
                  for pod in [self.read_pod(service)] if pod}
        images[DIRECTOR] = self.node.kube_proxy_version(self.shell)
        return {"kernel": self.engine.kernel_release(),
                "where": {**self.engine.describe(), "where": "cluster", "node": self.node.state()},
                "kernel_facts": {"hz": self.engine.hz(), "sysctl_defaults": self.engine.sysctl_defaults()},
                "lab": {"project": self.project, "namespace": self.project, "vip": self._vip},
                "images": images, "kubernetes": version.get("gitVersion")}

    def node_shell(self):
        """The shell on the node this lab's commands go through (the node agent's sessions, or
        the guest's ssh): what `make bench-node-agent` times."""
        return self.engine.ssh

    keeps = "the cluster's events and its node"

    def keep_evidence(self, directory):
        self.engine.collect(directory)
        events = self.api.request(self.path("events"), timeout=60)
        (directory / "cluster-events.json").write_text(json.dumps(json.loads(events), indent=1) + "\n")
