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
from ...topology import BACK, DIRECTOR, FRONT, PRIMARY, SERVERS, SERVICE_PORTS, SERVICE_SERVERS, VIP_HOST
from ..base import Lab
from ..compose import REPO
from ..engine import HostEngine
from . import allows, assets, from_compose, pod_status
from .api import ApiError, wait_for
from .node_shell import NodeShell
from .pods import serving, vip_service

# compose.yaml's LB_SERVICES: the server the director starts each service's VIP with
INITIAL_BACKENDS = {"mysql": PRIMARY, "web": "web-a"}
VIP_SERVICE = "vip"
BEHIND_VIP = "blackhole-lab/behind-vip"      # a pod with it is one of the VIP's endpoints
LAB_LABEL = "blackhole-lab/lab"
KUBE_PROXY_LOG = "/var/log/cluster/kube-proxy.log"
POD_START_S = 900               # created -> running (TCG: 70-80 s for a pod of the lab's images)
NAMESPACE_GONE_S = 300
API_POLL_S = 1.0
RESTART_GRACE_S = 3             # as the Compose labs' `restart --timeout 3`


def rfc3339_now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class ClusterLab(Lab):
    cell_namespaces = "container"

    def __init__(self, node, project, cells=(), servers=None, database=None, workdir=None):
        """node: the cluster (cluster.ClusterNode, up); project: the namespace the lab's objects
        live in; cells, servers, database: as ComposeLab's."""
        self.node, self.project = node, project
        self.cells = tuple(cells)
        self.servers = tuple(SERVERS if servers is None else servers)
        self.database = database or database_named()
        self.workdir = workdir or REPO / ".lab" / f"{project}-cluster"
        self._engine = self._api = self._shell = None
        self._pods = {}                  # service -> its pod's status (pod_status.summary), as last read
        self._restarts_asked = {}        # service -> restarts the lab made
        self._vip = None

    # -- the cluster -------------------------------------------------------------
    @property
    def engine(self):
        if self._engine is None:
            self._engine = self.node._running_engine()
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

    def _path(self, kind, name=""):
        core = kind in ("pods", "services", "events")
        base = f"/api/v1/namespaces/{self.project}" if core else f"/apis/discovery.k8s.io/v1/namespaces/{self.project}"
        return f"{base}/{kind}" + (f"/{name}" if name else "")

    def pod_services(self):
        """The services that are pods: every server and cell's, not the director."""
        return [*self.servers, *(cell.service for cell in self.cells)]

    def _rendered(self):
        """Each pod service's definition as Compose resolves it for a lab of this shape."""
        from ..compose import ComposeLab
        shape = ComposeLab(project=self.project, cells=self.cells, servers=self.servers, database=self.database,
                           workdir=self.workdir, engine=HostEngine(), datapath="nftables")
        return shape.docker.compose.config(return_json=True)["services"]

    # -- lifecycle -----------------------------------------------------------------
    def up(self, wait=True, preflight=None):
        engine = self.engine
        if preflight:
            preflight(self.kernel)
        definitions = self._rendered()
        self._refuse_what_the_nodes_forbid(definitions)
        engine.clock = engine.measure_clock()
        engine.clock_offset_s = engine.clock["offset_s"]
        self.api.create("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {
            "name": self.project, "labels": {LAB_LABEL: "1"}}})
        try:
            self._make(definitions)
            if wait:
                self.wait_healthy(POD_START_S)
        except BaseException:
            self.down()
            raise

    def _refuse_what_the_nodes_forbid(self, definitions):
        nodes = allows.what_nodes_allow(self.api)
        forbidden = sorted({(service, name) for service in self.pod_services()
                            for name in (definitions[service].get("sysctls") or {})
                            if not any(node.allows(name) for node in nodes)})
        if forbidden:
            service, name = forbidden[0]
            raise LabError(f"cluster: no node lets pod {service} set {name}: add it to the kubelet's "
                           f"{allows.SETTING} (--allowed-unsafe-sysctls)"
                           + (f" ({len(forbidden) - 1} more refused)" if len(forbidden) > 1 else ""))

    def _make(self, definitions):
        """The VIP's Service first (its ClusterIP is the address the clients are told), then the
        pods wave by wave, each after those its addresses name; a server is behind the VIP if
        compose.yaml's director starts with it."""
        planned = from_compose.planned_addresses(definitions, DIRECTOR, FRONT, VIP_HOST)
        ports = {name: port for name, port in SERVICE_PORTS.items() if set(SERVICE_SERVERS[name]) & set(self.servers)}
        self._vip = self.api.create(self._path("services"),
                                    vip_service(VIP_SERVICE, {BEHIND_VIP: "yes"}, ports))["spec"]["clusterIP"]
        addresses = {planned["vip"]: self._vip}
        for wave in from_compose.creation_waves(definitions, self.pod_services()):
            for service in wave:
                serves = {name: SERVICE_PORTS[name] for name, servers in SERVICE_SERVERS.items() if service in servers}
                behind = {BEHIND_VIP: "yes"} if service in INITIAL_BACKENDS.values() else {}
                self.api.create(self._path("pods"), from_compose.pod_for(
                    service, definitions[service], self.project, addresses, gated=service in self.servers,
                    host_aliases=self._known_addresses(), ports=serves, labels=behind))
            for service in wave:
                wait_for(f"pod {service} to get an address", lambda s=service: self._read_pod(s).get("ip"),
                         POD_START_S, poll_s=API_POLL_S)
                if service in planned:
                    addresses[planned[service]] = self._pods[service]["ip"]
                if service in self.servers:
                    self.api.patch(self._path("pods", service) + "/status", serving(True, rfc3339_now()))

    def _known_addresses(self):
        return {service: pod["ip"] for service, pod in self._pods.items() if pod.get("ip")}

    def _read_pod(self, service):
        """pod_status.summary of the service's pod, read from the API server now ({} if none)."""
        try:
            pod = self.api.get(self._path("pods", service))
        except ApiError as exc:
            if exc.status == 404:
                self._pods.pop(service, None)
                return {}
            raise
        self._pods[service] = pod_status.summary(pod)
        return self._pods[service]

    def wait_healthy(self, timeout_s=180, only=None):
        """Until each pod (only: of these services) is ready: a server once its health check first
        passed and the lab's gate is on, a cell once its container runs."""
        wanted = [s for s in (only or self.pod_services()) if s != DIRECTOR]

        def healthy():
            not_yet = []
            for service in wanted:
                pod = self._read_pod(service)
                if not pod:
                    raise LabError(f"not healthy: {service} (its pod is gone)")
                if pod["phase"] in ("Failed", "Succeeded"):
                    raise LabError(f"not healthy: {service} (pod {pod['phase']}: {self._why(service)})")
                if not (pod["ready"] if service in self.servers else pod["started"]):
                    not_yet.append(service)
            return not not_yet
        try:
            wait_for("the lab's pods to be ready", healthy, timeout_s, poll_s=API_POLL_S)
        except LabError as exc:
            raise LabError(str(exc).replace("cluster: gave up waiting", "not healthy: gave up waiting")) from None

    def _why(self, service):
        """The pod's own last events, in one line."""
        try:
            events = self.api.get(self._path("events") + f"?fieldSelector=involvedObject.name%3D{service}")["items"]
        except (ApiError, OSError):
            return "no events"
        return "; ".join(f"{e.get('reason')}: {e.get('message', '')[:160]}" for e in events[-3:]) or "no events"

    def down(self):
        """Delete the lab's namespace (everything in it goes with it) and wait until it is gone;
        nothing to do when the cluster or the namespace is not there."""
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

        def gone():
            try:
                api.get(f"/api/v1/namespaces/{self.project}")
            except ApiError as exc:
                return exc.status == 404
            return False
        wait_for(f"namespace {self.project} to be deleted", gone, NAMESPACE_GONE_S, poll_s=API_POLL_S)

    def problems(self):
        """{service: what is wrong} for each pod that is gone, not running, or was restarted by
        the kubelet rather than by the lab; and kube-proxy (the director) not running."""
        problems = {}
        try:
            for service in self.pod_services():
                pod = self._read_pod(service)
                if not pod:
                    problems[service] = f"{service}: its pod is gone"
                elif not pod_status.running(pod):
                    problems[service] = f"{service}: pod {pod['phase']}, container {', '.join(pod['state']) or 'none'}"
                elif pod["restarts"] > self._restarts_asked.get(service, 0):
                    problems[service] = f"{service}: its container was restarted by the kubelet"
            if self.shell.run("pgrep -x kube-proxy", check=False, timeout=30).returncode:
                problems[DIRECTOR] = f"{DIRECTOR}: the node's kube-proxy is not running"
        except (OSError, subprocess.TimeoutExpired, LabError) as exc:
            return {"*": self.engine.problem() or f"the cluster does not answer ({str(exc).strip()[:200]})"}
        return problems

    def services(self):
        return sorted([DIRECTOR, *self.pod_services()])

    def restart(self, service, timeout_s=120):
        """The container's PID 1 ends (SIGTERM, SIGKILL after the grace, as `compose restart`) and
        the kubelet starts it again in the same pod; returns once the new one runs."""
        before = self._read_pod(service)
        if not before.get("id"):
            raise LabError(f"{service}: no container to restart")
        self._restarts_asked[service] = before["restarts"] + 1
        self.shell.stop(before["id"], RESTART_GRACE_S)

        def new_one_runs():
            pod = self._read_pod(service)
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
            pod = self._read_pod(service)
        if not pod.get("id"):
            raise LabError(f"{service}: no running container in the lab's namespace {self.project}")
        return self.shell.in_container(pod["id"], command)

    def exec(self, service, command, check=True, timeout=60, stdin=None):
        from ..base import ExecResult
        result = self.shell.run(self._shell_command(service, command), timeout=timeout, check=False,
                                stdin=stdin if stdin is not None else "")
        if check and result.returncode:
            raise LabError(f"{service}: {' '.join(command)} exited {result.returncode}: {result.stderr.strip()[-500:]}")
        return ExecResult(result.returncode, result.stdout, result.stderr)

    def spawn(self, service, command, stdout=subprocess.PIPE):
        return subprocess.Popen(self.shell.argv(self._shell_command(service, command)), stdin=subprocess.PIPE,
                                stdout=stdout, stderr=subprocess.PIPE, text=True, bufsize=1, start_new_session=True)

    def placement(self, service):
        return service, None

    def logs(self, service):
        """The pod's log, timestamped, as the kubelet kept it; the director's: kube-proxy's."""
        if service == DIRECTOR:
            return self.shell.run(f"cat {KUBE_PROXY_LOG}", timeout=60).stdout
        return self.api.request(self._path("pods", service) + "/log?timestamps=true", timeout=60)

    def networks_of(self, service):
        if service == DIRECTOR:
            address = self.shell.run("ip -4 -o addr show dev eth0", timeout=30).stdout.split()[3].split("/")[0]
        else:
            address = (self._pods.get(service) or {}).get("ip") or self._read_pod(service).get("ip")
        if not address:
            raise LabError(f"no running pod for service {service!r}")
        return {FRONT: address, BACK: address}

    def vip_address(self):
        """The VIP: the ClusterIP of the lab's Service."""
        if self._vip is None:
            self._vip = self.api.get(self._path("services", VIP_SERVICE))["spec"]["clusterIP"]
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
                  for pod in [self._read_pod(service)] if pod}
        images[DIRECTOR] = self.shell.run(f"{assets.GUEST_DIR}/bin/kube-proxy --version", timeout=60).stdout.strip()
        return {"kernel": self.engine.kernel_release(),
                "where": {**self.engine.describe(), "where": "cluster", "node": self.node.state()},
                "kernel_facts": {"hz": self.engine.hz(), "sysctl_defaults": self.engine.sysctl_defaults()},
                "lab": {"project": self.project, "namespace": self.project, "vip": self._vip},
                "images": images, "kubernetes": version.get("gitVersion")}

    def keep_evidence(self, directory):
        self.engine.collect(directory)
        events = self.api.request(self._path("events"), timeout=60)
        (directory / "cluster-events.json").write_text(json.dumps(json.loads(events), indent=1) + "\n")
