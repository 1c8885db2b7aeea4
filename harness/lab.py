"""The lab as Compose sees it: the only module that knows Docker Compose.

Everything else (faults, loads, the director control) speaks to nodes through a Lab:
exec / spawn a command in a service, read its logs, ask its address.
"""
import copy
import dataclasses
import os
import subprocess
from pathlib import Path

import yaml
from python_on_whales import DockerClient

REPO = Path(__file__).resolve().parent.parent
COMPOSE_FILE = REPO / "compose.yaml"
IPVS_OVERRIDE = REPO / "compose.ipvs.yaml"
LABEL = "org.blackhole-lab"
CELL_LABEL = "org.blackhole-lab.cell"
DEFAULT_PROJECT = "blackhole-lab"
DATAPATHS = ("auto", "ipvs", "nftables")


class LabError(RuntimeError):
    pass


@dataclasses.dataclass(frozen=True)
class ClientCell:
    """One client container: its own network namespace, so its own TCP sysctls."""
    name: str
    sysctls: tuple = ()          # (("net.ipv4.tcp_retries2", 5), ...)

    @property
    def service(self):
        return f"client-{self.name}"


@dataclasses.dataclass
class ExecResult:
    returncode: int
    stdout: str
    stderr: str


def host_has_ipvs():
    """ip_vs is loaded in the host kernel (the director's namespace then has IPVS too)."""
    return Path("/proc/net/ip_vs").exists()


def resolve_datapath(requested):
    requested = requested or "auto"          # unset or empty (an exported, unset make variable)
    if requested not in DATAPATHS:
        raise LabError(f"LB_DATAPATH must be one of {', '.join(DATAPATHS)}, not {requested!r}")
    if requested == "ipvs" and not host_has_ipvs():
        raise LabError("LB_DATAPATH=ipvs, but this kernel has no IPVS (/proc/net/ip_vs missing): "
                       "load ip_vs on the host, or use LB_DATAPATH=auto or nftables")
    if requested == "auto":
        return "ipvs" if host_has_ipvs() else "nftables"
    return requested


class Lab:
    def __init__(self, project=DEFAULT_PROJECT, cells=(), datapath="auto", env=None, workdir=None):
        self.project = project
        self.cells = tuple(cells)
        self.datapath = resolve_datapath(datapath)
        self.workdir = Path(workdir or REPO / ".lab" / project)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.env = {"LAB_PROJECT": project, "LB_DATAPATH": self.datapath, **(env or {})}
        files = [COMPOSE_FILE]
        if self.datapath == "ipvs":
            files.append(IPVS_OVERRIDE)
        if self.cells:
            files.append(self._write_cells_file())
        env_file = self.workdir / "lab.env"
        env_file.write_text("".join(f"{k}={v}\n" for k, v in sorted(self.env.items())))
        self.docker = DockerClient(compose_files=files, compose_project_name=project,
                                   compose_env_files=[env_file])
        self._address_cache = {}

    def _write_cells_file(self):
        base = yaml.safe_load(COMPOSE_FILE.read_text())["services"]["client"]
        services = {}
        for cell in self.cells:
            service = copy.deepcopy(base)
            service["sysctls"] = {**service.get("sysctls", {}), **{k: str(v) for k, v in cell.sysctls}}
            service["labels"] = {**service.get("labels", {}), CELL_LABEL: cell.name}
            service["hostname"] = cell.service
            services[cell.service] = service
        path = self.workdir / "compose.cells.yaml"
        path.write_text(yaml.safe_dump({"services": services}, sort_keys=False))
        return path

    # -- lifecycle ---------------------------------------------------------
    def _compose(self, *args, timeout=None):
        """Run a compose command quietly; its output only matters when it fails."""
        command = self._compose_command("--progress", "quiet", *args)
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if result.returncode:
            output = (result.stdout + result.stderr).strip()[-2000:]
            raise LabError(f"docker compose {' '.join(args)} failed ({result.returncode}):\n{output}")
        return result.stdout

    def build(self, no_cache=False):
        self._compose("build", *(["--no-cache"] if no_cache else []))

    def up(self, timeout_s=180):
        self._address_cache.clear()
        self._compose("up", "--detach", "--wait", "--wait-timeout", str(timeout_s), "--remove-orphans")

    def down(self):
        self._compose("down", "--remove-orphans", "--volumes", "--timeout", "3")

    def services(self):
        return sorted(self.docker.compose.config(return_json=True)["services"])

    def health(self):
        """{service: health} for the running containers ('healthy', 'starting', ...)."""
        status = {}
        for container in self.docker.compose.ps():
            service = container.config.labels.get("com.docker.compose.service")
            health = container.state.health
            status[service] = health.status if health else container.state.status
        return status

    # -- talking to nodes --------------------------------------------------
    def _compose_command(self, *args):
        return [str(a) for a in self.docker.client_config.docker_compose_cmd] + list(args)

    def exec(self, service, command, check=True, timeout=60, stdin=None):
        result = subprocess.run(self._compose_command("exec", "-T", service, *command),
                                input=stdin, capture_output=True, text=True, timeout=timeout)
        if check and result.returncode:
            raise LabError(f"{service}: {' '.join(command)} exited {result.returncode}: "
                           f"{result.stderr.strip()[-500:]}")
        return ExecResult(result.returncode, result.stdout, result.stderr)

    def spawn(self, service, command, stdout=subprocess.PIPE):
        """Start a command in a service, with a pipe to its stdin; stdout to a pipe or a file.
        It gets its own session, so a Ctrl-C at the terminal leaves it to the caller's cleanup."""
        return subprocess.Popen(self._compose_command("exec", "-T", service, *command),
                                stdin=subprocess.PIPE, stdout=stdout, stderr=subprocess.PIPE,
                                text=True, bufsize=1, start_new_session=True)

    def logs(self, service):
        return self.docker.compose.logs(service, timestamps=True)

    def image_ids(self):
        """{service: image id} of the running containers."""
        return {c.config.labels.get("com.docker.compose.service"): c.image for c in self.docker.compose.ps()}

    def compose_version(self):
        return self._compose("version", "--short").strip()

    def container_name(self, service):
        for container in self.docker.compose.ps():
            if container.config.labels.get("com.docker.compose.service") == service:
                return container.name
        raise LabError(f"no running container for service {service!r}")

    def _networks_of(self, service):
        """{network: address} of a service's container; cached, as addresses are fixed for a lab's life."""
        if service not in self._address_cache:
            for container in self.docker.compose.ps():
                name = container.config.labels.get("com.docker.compose.service")
                self._address_cache[name] = {net.removeprefix(f"{self.project}_"): n.ip_address
                                             for net, n in container.network_settings.networks.items()
                                             if n.ip_address}
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


def labelled_leftovers(docker=None):
    """Names of every container, network and volume labelled as the lab's."""
    docker = docker or DockerClient()
    return {
        "containers": [c.name for c in docker.container.list(all=True, filters={"label": LABEL})],
        "networks": [n.name for n in docker.network.list(filters={"label": LABEL})],
        "volumes": [v.name for v in docker.volume.list(filters={"label": LABEL})],
    }


def clean(docker=None):
    """Remove everything labelled as the lab's, from any run or crash; returns what went."""
    docker = docker or DockerClient()
    found = labelled_leftovers(docker)
    if found["containers"]:
        docker.container.remove(found["containers"], force=True, volumes=True)
    if found["networks"]:
        docker.network.remove(found["networks"])
    if found["volumes"]:
        docker.volume.remove(found["volumes"])
    # Images are kept (they make the next `up` fast), but old builds left untagged are garbage.
    docker.image.prune(filter={"label": LABEL})
    return found


def environment_from_os():
    """The lab knobs a user can set from make or the shell."""
    keys = ("TCP_RETRIES2", "LB_IDLE_TIMEOUT", "LAB_FRONT_PREFIX", "LAB_BACK_PREFIX")
    return {k: os.environ[k] for k in keys if os.environ.get(k)}
