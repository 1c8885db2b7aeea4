"""Talking to a Compose lab's nodes: each service's container, found with one look at the
project's containers, and `docker exec` into it (a cell in a network namespace: in its namespace)."""
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any, TypeVar

from python_on_whales import DockerClient

from ..errors import LabError
from ..topology import FRONT
from . import container_states, netns_cells
from .base import ClientCell, ExecResult
from .container_states import SERVICE_LABEL
from .docker_lists import listed_again_if_one_vanished
from .engine import PlaceEngine

Read = TypeVar("Read")


class ContainerNodes:
    """What ComposeLab (compose.py) does with a service's container. It provides engine, project,
    docker (python-on-whales with the project's Compose files) and _compose_command(*args)."""
    engine: PlaceEngine
    project: str
    _compose_command: Callable[..., list[str]]

    @property
    def docker(self) -> DockerClient:
        raise NotImplementedError("ComposeLab's own")

    def _reset_nodes(self) -> None:
        self._address_cache: dict[str, dict[str, str]] = {}
        self._containers: dict[str, str] = {}   # service -> its container's name, while the lab is up
        self._netns: dict[str, str] = {}           # a cell's service -> its namespace in netns_cells.HOST_SERVICE

    def _project_containers(self, read: Callable[[Any], Read]) -> list[Read]:
        """read(container) of each of the project's containers, stopped ones too."""
        return listed_again_if_one_vanished(lambda: [read(c) for c in self.engine.docker().container.list(
            all=True, filters={"label": f"{container_states.PROJECT_LABEL}={self.project}"})])

    def _container_states(self) -> dict[str, container_states.ContainerState]:
        """{service: its container's ContainerState}, stopped containers too."""
        return container_states.project_states(container_states.command_of(self.engine.docker()), self.project)

    def _health_tests(self) -> dict[str, Any]:
        """{service: its container's health check test as Docker runs it (None: it has none)}."""
        return dict(self._project_containers(lambda c: (
            c.config.labels.get(SERVICE_LABEL), c.config.healthcheck.test if c.config.healthcheck else None)))

    def _container(self, service: str) -> str | None:
        """The name of the service's container, or None if it has none."""
        if service not in self._containers:
            self._learn_containers()
        return self._containers.get(service)

    def _learn_containers(self) -> None:
        """Each service's container name and addresses, with one look at the project's containers."""
        def service_name_addresses(container: Any) -> tuple[str, str, dict[str, str]]:
            return (container.config.labels.get(SERVICE_LABEL), container.name,
                    {net.removeprefix(f"{self.project}_"): n.ip_address
                     for net, n in container.network_settings.networks.items() if n.ip_address})
        for service, name, addresses in self._project_containers(service_name_addresses):
            self._containers[service] = name
            if addresses:
                self._address_cache[service] = addresses

    def _enter_netns_cells(self, cells: Iterable[ClientCell], addresses: Mapping[str, str]) -> None:
        """From now on a cell's service runs its commands in its namespace of netns_cells.HOST_SERVICE."""
        for cell in cells:
            self._netns[cell.service] = cell.name
            self._address_cache[cell.service] = {FRONT: addresses[cell.name]}

    def _docker_command(self, *args: str) -> list[str]:
        return [str(a) for a in self.docker.client_config.docker_cmd] + list(args)

    def _exec_command(self, service: str, command: Sequence[str]) -> list[str]:
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

    def exec(self, service: str, command: Sequence[str], check: bool = True, timeout: float = 60,
             stdin: str | None = None) -> ExecResult:
        # without input, nothing of this terminal's (a workshop's "press Enter") reaches the container
        result = subprocess.run(self._exec_command(service, command), capture_output=True, text=True, timeout=timeout,
                                input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)
        done = ExecResult(result.returncode, result.stdout, result.stderr)
        if check and result.returncode:
            raise done.failed(service, command)
        return done

    def spawn(self, service: str, command: Sequence[str], stdout: int | IO[Any] = subprocess.PIPE) -> subprocess.Popen:
        """Start a command in a service, with a pipe to its stdin; stdout to a pipe or a file.
        It gets its own session, so a Ctrl-C at the terminal leaves it to the caller's cleanup."""
        return subprocess.Popen(self._exec_command(service, command),
                                stdin=subprocess.PIPE, stdout=stdout, stderr=subprocess.PIPE,
                                text=True, bufsize=1, start_new_session=True)

    def placement(self, service: str) -> tuple[str, str | None]:
        """(the service whose container runs a cell's programs, the file of the network namespace
        to enter there, or None). One program serving many cells, entering each one's namespace
        itself, costs one exec session in that container instead of one per cell: a hundred
        chatty sessions in one container made every further exec into it take seconds."""
        if service in self._netns:
            return netns_cells.HOST_SERVICE, netns_cells.path(self._netns[service])
        return service, None

    def logs(self, service: str) -> str:
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

    def container_name(self, service: str) -> str:
        for container in self.docker.compose.ps():
            if (container.config.labels or {}).get(SERVICE_LABEL) == service:
                return container.name
        raise LabError(f"no running container for service {service!r}")

    def networks_of(self, service: str) -> dict[str, str]:
        """{network: address} of a service's container; cached, as addresses are fixed for a lab's life."""
        if service not in self._address_cache:
            self._learn_containers()
        if service not in self._address_cache:
            raise LabError(f"no running container for service {service!r}")
        return self._address_cache[service]
