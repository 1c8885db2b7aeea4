"""The lab as a Compose project on an engine: the face the rest of the harness uses.

  up / down / build / restart       the project's lifecycle
  exec / spawn / logs               talk to a service's container
  address / addresses               where a service is on the lab's networks
  health / services / image_ids     what is running

Constructing a ComposeLab touches nothing; its Compose files are written on first use,
into its workdir.
"""
import copy
import dataclasses
import os
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml
from python_on_whales.exceptions import DockerException

from ..errors import LabError
from ..scenario.knobs import SYSCTL_KNOBS
from ..topology import (CELL_NAMESPACES, DATAPATHS, DEFAULT_CELL_NAMESPACES, DEFAULT_DATAPATH, DIRECTOR, FRONT,
                        SERVERS)
from . import netns_cells, registry
from .engine import HostEngine

REPO = Path(__file__).resolve().parents[2]
COMPOSE_FILE = REPO / "compose.yaml"
IPVS_OVERRIDE = REPO / "compose.ipvs.yaml"
LABEL = "org.blackhole-lab"
CELL_LABEL = "org.blackhole-lab.cell"
SERVICE_LABEL = "com.docker.compose.service"
DEFAULT_PROJECT = "blackhole-lab"
HEALTH_POLL_S = 0.25
EXEC_SIDE_BY_SIDE = 8          # docker execs at once (each is a docker CLI process)
STALE_ENDPOINT = "has active endpoints"
STALE_ENDPOINT_RETRY_S, STALE_ENDPOINT_WAIT_S = 2.0, 10.0
# The lab knobs a user can set from make or the shell.
USER_ENV = ("TCP_RETRIES2", "LB_IDLE_TIMEOUT", "LAB_FRONT_PREFIX", "LAB_BACK_PREFIX")


HOST_CA_DIR = Path("/usr/local/share/ca-certificates")


def host_extra_ca():
    """The certificate authorities this host added to its trust store (PEM), '' if none: where a
    TLS-inspecting proxy sits in front of the registries, image builds must trust it too."""
    if not HOST_CA_DIR.is_dir():
        return ""
    return "".join(p.read_text() for p in sorted(HOST_CA_DIR.rglob("*.crt")))


@dataclasses.dataclass(frozen=True)
class ClientCell:
    """One client container: its own network namespace, so its own TCP sysctls and link."""
    name: str
    sysctls: tuple = ()          # (("net.ipv4.tcp_retries2", 5), ...)
    netem: str = ""              # netem arguments for its side of the link ('delay 50ms'), '' for none

    @property
    def service(self):
        return f"client-{self.name}"


@dataclasses.dataclass
class ExecResult:
    returncode: int
    stdout: str
    stderr: str


def environment_from_os():
    return {k: os.environ[k] for k in USER_ENV if os.environ.get(k)}


def resolve_datapath(requested, has_ipvs):
    requested = requested or DEFAULT_DATAPATH        # unset or empty (an exported, unset make variable)
    if requested not in DATAPATHS:
        raise LabError(f"LB_DATAPATH must be one of {', '.join(DATAPATHS)}, not {requested!r}")
    if requested == "ipvs" and not has_ipvs:
        raise LabError("LB_DATAPATH=ipvs, but this kernel has no IPVS (/proc/net/ip_vs missing): "
                       "load ip_vs on the host, or use LB_DATAPATH=auto or nftables")
    if requested == "auto":
        return "ipvs" if has_ipvs else "nftables"
    return requested


def compose_services():
    """compose.yaml's services, as written."""
    return yaml.safe_load(COMPOSE_FILE.read_text())["services"]


def image_names():
    """The lab's images, as compose.yaml names them."""
    return sorted({s["image"] for s in compose_services().values() if "image" in s})


class ComposeLab:
    def __init__(self, project=DEFAULT_PROJECT, cells=(), datapath=DEFAULT_DATAPATH, env=None, workdir=None,
                 engine=None, servers=None, net_admin=(), cell_namespaces=DEFAULT_CELL_NAMESPACES):
        """servers: the servers to start (None: all of them); the director and clients always start.
        net_admin: services besides the director that get CAP_NET_ADMIN (a fault's nft rules, netem).
        cell_namespaces: 'container' (a client container per cell) or 'netns' (a network namespace
        per cell, all in one client container: netns_cells.py); either way a cell's service is
        what exec, spawn and address take."""
        if cell_namespaces not in CELL_NAMESPACES:
            raise LabError(f"cell namespaces must be one of {', '.join(CELL_NAMESPACES)}, not {cell_namespaces!r}")
        self.project = project
        self.cell_namespaces = cell_namespaces
        self.net_admin = frozenset(net_admin)
        self.cells = tuple(cells)
        self.servers = None if servers is None else tuple(servers)
        self.engine = engine or HostEngine()
        self.requested_datapath = datapath
        self.workdir = Path(workdir or REPO / ".lab" / project)
        self.user_env = dict(env or {})
        self._datapath = self._docker = None
        self._address_cache = {}
        self.subnets = {}
        self._running_services = None
        self._containers = {}           # service -> its container's name, while the lab is up
        self._netns = {}                # a cell's service -> its namespace in netns_cells.HOST_SERVICE

    @property
    def datapath(self):
        """The director's datapath: what was asked for, as the kernel under the lab allows."""
        if self._datapath is None:
            self.engine.ensure_started()
            self._datapath = resolve_datapath(self.requested_datapath, self.engine.has_ipvs())
        return self._datapath

    @property
    def env(self):
        owner = registry.me()
        return {"LAB_PROJECT": self.project, "LB_DATAPATH": self.datapath, "LAB_OWNER": f"{owner['pid']}:{owner['start']}",
                **self.engine.compose_env(), **self.subnets, **self.user_env}

    def _claim_subnets(self):
        """A free pair of subnets on a shared engine (this host), unless the user chose them; a
        guest's engine is the run's own and takes compose.yaml's defaults."""
        if self.subnets or not self.engine.shared or {"LAB_FRONT_PREFIX", "LAB_BACK_PREFIX"} & set(self.user_env):
            return
        def subnets_of_every_network():
            return [config.get("Subnet", "") if isinstance(config, dict) else getattr(config, "subnet", "")
                    for network in self.engine.docker().network.list() for config in (network.ipam.config or [])]
        in_use = {subnet.rsplit(".", 1)[0] for subnet in listed_again_if_one_vanished(subnets_of_every_network)
                  if subnet and subnet.endswith(".0/24")}
        try:
            front, back = registry.reserve(self.project, in_use)
        except RuntimeError as exc:
            raise LabError(str(exc)) from None
        self.subnets = {"LAB_FRONT_PREFIX": front, "LAB_BACK_PREFIX": back}
        self._docker = None                       # its env file changes with them

    def now(self):
        """The lab's clock (the one its containers stamp their records with)."""
        return time.time() + self.engine.clock_offset_s

    # -- the Compose project -------------------------------------------------
    def compose_files(self):
        """Writes the files this project needs (once) and returns them in Compose's order."""
        files = [COMPOSE_FILE] + ([IPVS_OVERRIDE] if self.datapath == "ipvs" else [])
        self.workdir.mkdir(parents=True, exist_ok=True)
        if self.cells:
            files.append(self._write_cells_file())
        servers = sorted(self.net_admin - {cell.service for cell in self.cells} - {netns_cells.HOST_SERVICE})
        if servers:
            path = self.workdir / "compose.net-admin.yaml"
            path.write_text(yaml.safe_dump({"services": {s: {"cap_add": ["NET_ADMIN"]} for s in servers}}))
            files.append(path)
        return files

    def _env_file(self):
        path = self.workdir / "lab.env"
        path.write_text("".join(f"{k}={v}\n" for k, v in sorted(self.env.items())))
        return path

    def _write_cells_file(self):
        base = compose_services()["client"]
        services = {}
        if self.in_netns:
            service = self._client_service(base, netns_cells.HOST_SERVICE)
            service["cap_add"] = list(netns_cells.CAPABILITIES)
            others = 1 + len(SERVERS if self.servers is None else self.servers)      # the director and servers
            service["cpu_shares"] = netns_cells.cpu_shares(len(self.cells), others)
            services[netns_cells.HOST_SERVICE] = service
        for cell in () if self.in_netns else self.cells:
            service = self._client_service(base, cell.service)
            service["sysctls"] = {**service.get("sysctls", {}), **{k: str(v) for k, v in cell.sysctls}}
            service["labels"][CELL_LABEL] = cell.name
            if cell.netem or cell.service in self.net_admin:
                service["cap_add"] = ["NET_ADMIN"]
            services[cell.service] = service
        path = self.workdir / "compose.cells.yaml"
        path.write_text(yaml.safe_dump({"services": services}, sort_keys=False))
        return path

    @staticmethod
    def _client_service(base, name):
        """A client container's service, as compose.yaml's client service (which builds the image, once)."""
        service = copy.deepcopy(base)
        service.pop("build", None)
        service["pull_policy"] = "never"
        service["labels"] = dict(service.get("labels", {}))
        service["hostname"] = name
        return service

    @property
    def in_netns(self):
        """Whether the cells are network namespaces in one client container (netns_cells.py)."""
        return self.cell_namespaces == "netns" and bool(self.cells)

    @property
    def docker(self):
        if self._docker is None:
            files = self.compose_files()
            self._docker = self.engine.docker(compose_files=files, compose_project_name=self.project,
                                              compose_env_files=[self._env_file()])
        return self._docker

    def _compose_command(self, *args):
        return [str(a) for a in self.docker.client_config.docker_compose_cmd] + list(args)

    def _compose(self, *args, timeout=None, env=None):
        """Run a compose command quietly; its output only matters when it fails."""
        result = subprocess.run(self._compose_command("--progress", "quiet", *args), capture_output=True,
                                text=True, timeout=timeout, env=env)
        if result.returncode:
            output = (result.stdout + result.stderr).strip()[-2000:]
            raise LabError(f"docker compose {' '.join(args)} failed ({result.returncode}):\n{output}")
        return result.stdout

    # -- lifecycle -----------------------------------------------------------
    def build(self, no_cache=False):
        env = {**os.environ, "LAB_HOST_EXTRA_CA": host_extra_ca()}
        self._compose("build", *(["--no-cache"] if no_cache else []), env=env)
        # An older build of a tag, left untagged, could be picked from the cache by the next build,
        # flipping the image id (and so the guest disk's key) between builds of the same files.
        self.engine.docker().image.prune(filter={"label": LABEL})

    def up(self, timeout_s=180, wait=True):
        """Start the lab; wait=False: return once its containers run, before their health checks
        pass (wait_healthy then waits for them)."""
        self.engine.ensure_started()
        self.check_kernel_supports()
        self._claim_subnets()
        self._address_cache.clear()
        self._containers, self._netns = {}, {}
        waiting = ["--wait", "--wait-timeout", str(timeout_s)] if wait else []
        self._compose("up", "--detach", *waiting, "--remove-orphans", *self._started_services())
        self._running_services = self.services()
        self._learn_containers()
        if self.in_netns:
            self._make_netns_cells()
        for cell in self.cells:
            if cell.netem:
                self.exec(cell.service, ["tc", "qdisc", "replace", "dev", "eth0", "root", "netem", *cell.netem.split()])

    def wait_healthy(self, timeout_s=180, only=None):
        """Until every container with a health check passes it (only: of these services); a LabError
        when one fails it, stops, or the time is up."""
        deadline = time.monotonic() + timeout_s
        while True:
            found = self.health()
            health = {service: found.get(service, "gone") for service in only or self._running_services}
            failed = {s: h for s, h in health.items() if h not in ("healthy", "starting", "running")}
            if failed:
                raise LabError("not healthy: " + ", ".join(f"{s} ({h})" for s, h in sorted(failed.items())))
            waiting = sorted(s for s, h in health.items() if h == "starting")
            if not waiting:
                return
            if time.monotonic() > deadline:
                raise LabError(f"not healthy within {timeout_s:g} s: {', '.join(waiting)}")
            time.sleep(HEALTH_POLL_S)

    def _make_netns_cells(self):
        """Each cell's namespace in the one client container, made with one exec."""
        front_prefix = self.address(netns_cells.HOST_SERVICE, FRONT).rsplit(".", 1)[0]
        try:
            addresses = netns_cells.plan([cell.name for cell in self.cells], front_prefix)
        except ValueError as exc:
            raise LabError(f"cell namespaces netns: {exc}; use cell namespaces 'container'") from None
        inherited = list(compose_services()["client"].get("sysctls", {}))
        script = netns_cells.setup_script([(cell.name, cell.sysctls) for cell in self.cells], addresses, inherited)
        result = self.exec(netns_cells.HOST_SERVICE, ["bash", "-s"], check=False, stdin=script)
        if result.returncode:
            raise LabError(f"{netns_cells.HOST_SERVICE}: making the cells' network namespaces failed "
                           f"({result.stderr.strip()[-300:]}); they need macvlan in the kernel under the lab")
        for cell in self.cells:
            self._netns[cell.service] = cell.name
            self._address_cache[cell.service] = {FRONT: addresses[cell.name]}

    def check_kernel_supports(self):
        """Refuse, before anything starts, cells that need what the kernel under the lab lacks."""
        kernel = self.engine.kernel_release()
        recent = {k.sysctl: (name, k) for name, k in SYSCTL_KNOBS.items() if k.since}
        for cell in self.cells:
            for sysctl, _ in cell.sysctls:
                if sysctl in recent and not self.engine.has_sysctl(recent[sysctl][1].proc_path):
                    name, knob = recent[sysctl]
                    raise LabError(f"{cell.service}: {name} needs {sysctl}, which kernel {kernel} does not have "
                                   f"(it came with Linux {knob.since}); pick a newer KERNEL or drop the knob")
            if cell.netem and not self.engine.has_netem():
                raise LabError(f"{cell.service}: link_delay_ms/link_loss_pct need tc netem, and kernel {kernel} "
                               "has no sch_netem; run it in a guest kernel that has it (KERNEL=6.1 or 6.12)")

    def down(self, timeout_s=120):
        try:
            if self.engine.running():          # a guest that is gone took its lab with it
                self._compose_down(timeout_s)
        finally:
            if self.engine.shared:
                registry.release(self.project)

    def _compose_down(self, timeout_s):
        """`compose down`, again while a network still counts an endpoint of a removed container:
        Docker 20.10 does so now and then for a moment after removing a hundred containers, and
        sometimes for good (moby/moby#42119: only restarting dockerd clears it)."""
        deadline = time.monotonic() + timeout_s
        gives_up = None
        while True:
            try:
                # nothing in the lab keeps state worth a clean shutdown (its logs are kept before this)
                self._compose("down", "--remove-orphans", "--volumes", "--timeout", "0",
                              timeout=max(1.0, deadline - time.monotonic()))
                return
            except LabError as exc:
                if STALE_ENDPOINT not in str(exc):
                    raise
                gives_up = gives_up or min(deadline, time.monotonic() + STALE_ENDPOINT_WAIT_S)
                if time.monotonic() + STALE_ENDPOINT_RETRY_S > gives_up:
                    raise LabError(f"{exc}\nDocker still counts an endpoint of a removed container on that network "
                                   "(moby/moby#42119); restarting dockerd while no lab runs clears it") from None
                time.sleep(STALE_ENDPOINT_RETRY_S)

    def keep(self):
        """This lab outlives the process that made it (`make up`)."""
        registry.keep(self.project)

    def restart(self, service, timeout_s=60):
        self._compose("restart", "--timeout", "3", service, timeout=timeout_s)

    def _started_services(self):
        """What `up` names: nothing (all of compose.yaml) or the director, the servers asked for
        and the cells' clients."""
        if self.servers is None:
            return []
        clients = [netns_cells.HOST_SERVICE] if self.in_netns else [cell.service for cell in self.cells]
        return [DIRECTOR, *self.servers, *dict.fromkeys(clients)]

    def problems(self):
        """{service: what is wrong} for each of the lab's containers that is gone or not running
        (an OOM kill, an exit, a removal, an engine that does not answer)."""
        expected = self._running_services or self.services()
        try:
            found = self._container_states()
        except Exception as exc:                  # the engine itself: restarted, gone
            return {"*": f"the Docker engine does not answer ({str(exc).strip()[:200]})"}
        problems = {}
        for service in expected:
            state = found.get(service)
            if state is None or state.status == "removing":
                problems[service] = f"{service}: its container is gone"
            elif state.status != "running":
                why = "OOM-killed" if state.oom_killed else f"exit code {state.exit_code}"
                problems[service] = f"{service}: {state.status} ({why})"
        return problems

    def _container_states(self):
        """{service: its container's state}, stopped containers too."""
        return dict(self._project_containers(lambda c: (c.config.labels.get(SERVICE_LABEL), c.state)))

    def _project_containers(self, read):
        """read(container) of each of the project's containers, stopped ones too."""
        return listed_again_if_one_vanished(lambda: [read(c) for c in self.engine.docker().container.list(
            all=True, filters={"label": f"com.docker.compose.project={self.project}"})])

    def services(self):
        """The services this lab runs."""
        if self.servers is None:
            return sorted(self.docker.compose.config(return_json=True)["services"])
        return sorted(self._started_services())

    def health(self):
        """{service: health} of the lab's containers ('healthy', 'starting', or without a health
        check their state: 'running', 'exited', ...)."""
        return {service: state.health.status if state.health else state.status
                for service, state in self._container_states().items()}

    # -- talking to nodes ----------------------------------------------------
    def _container(self, service):
        """The name of the service's container, or None if it has none."""
        if service not in self._containers:
            self._learn_containers()
        return self._containers.get(service)

    def _learn_containers(self):
        """Each service's container name and addresses, with one look at the project's containers."""
        def service_name_addresses(container):
            return (container.config.labels.get(SERVICE_LABEL), container.name,
                    {net.removeprefix(f"{self.project}_"): n.ip_address
                     for net, n in container.network_settings.networks.items() if n.ip_address})
        for service, name, addresses in self._project_containers(service_name_addresses):
            self._containers[service] = name
            if addresses:
                self._address_cache[service] = addresses

    def _docker_command(self, *args):
        return [str(a) for a in self.docker.client_config.docker_cmd] + list(args)

    def _exec_command(self, service, command):
        """`docker exec -i <the service's container> command`: as `compose exec -T`, without Compose
        reading the project for each of a big grid's hundreds of processes. A service without a
        container goes to Compose, which says so in its own words. A cell's service in a network
        namespace runs the command in its namespace."""
        if service in self._netns:
            service, command = netns_cells.HOST_SERVICE, netns_cells.command_in(self._netns[service], command)
        container = self._container(service)
        if container is None:
            return self._compose_command("exec", "-T", service, *command)
        return self._docker_command("exec", "-i", container, *command)

    def exec_each(self, commands, check=True, timeout=60):
        """[(service, command), ...] run side by side; their ExecResults in the same order."""
        if not commands:
            return []
        with ThreadPoolExecutor(min(len(commands), EXEC_SIDE_BY_SIDE)) as pool:
            return list(pool.map(lambda sc: self.exec(*sc, check=check, timeout=timeout), commands))

    def exec(self, service, command, check=True, timeout=60, stdin=None):
        # without input, nothing of this terminal's (a workshop's "press Enter") reaches the container
        given = {"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}
        result = subprocess.run(self._exec_command(service, command), capture_output=True, text=True,
                                timeout=timeout, **given)
        if check and result.returncode:
            raise LabError(f"{service}: {' '.join(command)} exited {result.returncode}: "
                           f"{result.stderr.strip()[-500:]}")
        return ExecResult(result.returncode, result.stdout, result.stderr)

    def spawn(self, service, command, stdout=subprocess.PIPE):
        """Start a command in a service, with a pipe to its stdin; stdout to a pipe or a file.
        It gets its own session, so a Ctrl-C at the terminal leaves it to the caller's cleanup."""
        return subprocess.Popen(self._exec_command(service, command),
                                stdin=subprocess.PIPE, stdout=stdout, stderr=subprocess.PIPE,
                                text=True, bufsize=1, start_new_session=True)

    def placement(self, service):
        """(the service whose container runs a cell's programs, the file of the network namespace
        to enter there, or None). One program serving many cells, entering each one's namespace
        itself, costs one exec session in that container instead of one per cell: a hundred
        chatty sessions in one container made every further exec into it take seconds."""
        if service in self._netns:
            return netns_cells.HOST_SERVICE, netns_cells.path(self._netns[service])
        return service, None

    def logs(self, service):
        """The service's container log, timestamped (a cell in a namespace: its container's)."""
        service, _ = self.placement(service)
        container = self._container(service)
        if container is None:
            return self.docker.compose.logs(service, timestamps=True)
        # one pipe for both streams: the CLI writes them out in the order the container did
        result = subprocess.run(self._docker_command("logs", "--timestamps", container), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=60)
        if result.returncode:
            raise LabError(f"{service}: docker logs exited {result.returncode}: {result.stdout.strip()[-500:]}")
        return result.stdout

    def image_sizes_mb(self):
        """{image tag: size in MB} of the lab's images (blackhole-lab/*)."""
        return {tag: round(image.size / 1e6) for image in self.engine.docker().image.list()
                for tag in image.repo_tags if tag.startswith("blackhole-lab/")}

    def image_ids(self):
        """{service: image id} of the running containers."""
        return {c.config.labels.get(SERVICE_LABEL): c.image for c in self.docker.compose.ps()}

    def compose_version(self):
        return self._compose("version", "--short").strip()

    def kernel_release(self):
        return self.engine.kernel_release()

    def where(self):
        """What env.json records about where the lab runs (host or guest, kernel, HZ, ...)."""
        return self.engine.describe()

    def keep_evidence(self, directory):
        """Keep what the place the lab runs in can tell about a run (a guest's console log)."""
        self.engine.collect(directory)

    def container_name(self, service):
        for container in self.docker.compose.ps():
            if container.config.labels.get(SERVICE_LABEL) == service:
                return container.name
        raise LabError(f"no running container for service {service!r}")

    def _networks_of(self, service):
        """{network: address} of a service's container; cached, as addresses are fixed for a lab's life."""
        if service not in self._address_cache:
            self._learn_containers()
        if service not in self._address_cache:
            raise LabError(f"no running container for service {service!r}")
        return self._address_cache[service]

    def address(self, service, network):
        return self._networks_of(service)[network]

    def addresses(self, service):
        """Every IPv4 address of a service's container, on all lab networks."""
        return sorted(self._networks_of(service).values())

    def networks(self):
        return self.docker.network.list(filters={"label": f"com.docker.compose.project={self.project}"})


def listed_again_if_one_vanished(list_them, attempts=3):
    """What list_them() reads from Docker's containers or networks. Listing them is `ls` then
    `inspect`, and python-on-whales inspects again when an attribute is read a moment later: one
    removed in between (by this lab, or by another lab on the same engine) fails the inspect, and
    the next look no longer lists it. So list_them reads all it needs itself."""
    for attempt in range(attempts):
        try:
            return list_them()
        except DockerException:
            if attempt == attempts - 1:
                raise
            time.sleep(0.2)
