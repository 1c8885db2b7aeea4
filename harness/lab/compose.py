"""A lab as a Compose project on an engine (this host's Docker, or a guest's: engine.py); the
face the rest of the harness uses is lab/base.py's Lab.

Constructing a ComposeLab touches nothing; its Compose files are written on first use, into
its workdir (compose_files.py says what they hold).
"""
import subprocess
import time
import threading
from collections.abc import Callable, Iterable
from typing import Any
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

from ..databases.base import database as database_named
from ..errors import LabError
from ..topology import CELL_NAMESPACES, FRONT
from . import compose_files, container_states, health_check_loop, images, netns_cells, registry
from .bounded_run import run_bounded
from .compose_down import compose_down
from .base import Lab
from .datapath import resolve_datapath
from .docker_lists import listed_again_if_one_vanished
from .engine import HostEngine, PlaceEngine
from ..settings import machine
from .nodes import ContainerNodes
from .request import LabRequest

REPO = images.REPO
# The lab knobs a user can set from make or the shell.
USER_ENV = ("TCP_RETRIES2", "LB_IDLE_TIMEOUT", "LAB_FRONT_PREFIX", "LAB_BACK_PREFIX")
DEFAULT_SUBNETS = {"LAB_FRONT_PREFIX": "10.213.1", "LAB_BACK_PREFIX": "10.213.2"}    # compose.yaml's
UP_LIMIT_S = 180             # a lab's containers started and, when waited for, healthy


def environment_from_os() -> dict[str, str]:
    return machine.given(USER_ENV)


class ComposeLab(ContainerNodes, Lab):
    def __init__(self, request: LabRequest = LabRequest(), engine: PlaceEngine | None = None) -> None:
        """request: its shape (request.py); the director and the clients always start. Its cells'
        namespaces are containers of their own or network namespaces of one client container
        (netns_cells.py); either way a cell's service is what exec, spawn and address take.
        engine: the Docker engine it runs on (None: this host's)."""
        r = request
        if r.cell_namespaces not in CELL_NAMESPACES:
            raise LabError(f"cell namespaces must be one of {', '.join(CELL_NAMESPACES)}, not {r.cell_namespaces!r}")
        self.project = r.project
        self.cell_namespaces = r.cell_namespaces
        self.cells = r.cells
        self.database = r.database or database_named()
        self.shape = compose_files.LabShape(self.cells, r.servers, r.net_admin, r.cell_namespaces == "netns" and bool(self.cells),
                                            tuple(s for s in (self.database.services(), *r.services) if s))
        self.engine: PlaceEngine = engine or HostEngine()
        self.requested_datapath = r.datapath
        self.workdir = Path(r.workdir or REPO / ".lab" / r.project)
        self.user_env = dict(r.env)
        self._datapath: str | None = None
        self._docker: Any = None          # python_on_whales' DockerClient for this project, once asked
        self.subnets: dict[str, str] = {}
        self._running_services: list[str] | None = None
        self._passed_own_check: dict[str, str] = {}       # service -> the container start its own check passed in
        self._reset_nodes()

    @property
    def datapath(self) -> str:
        """The director's datapath: what was asked for, as the kernel under the lab allows."""
        if self._datapath is None:
            self.engine.ensure_started()
            self._datapath = resolve_datapath(self.requested_datapath, self.engine.has_ipvs())
        return self._datapath

    @property
    def kernel(self) -> PlaceEngine:
        return self.engine

    @property
    def env(self) -> dict[str, str]:
        owner = registry.me()
        return {"LAB_PROJECT": self.project, "LB_DATAPATH": self.datapath, "LAB_OWNER": f"{owner['pid']}:{owner['start']}",
                **self.engine.compose_env(), **self.subnets, **self.user_env}

    def _claim_subnets(self) -> None:
        """A free pair of subnets on a shared engine (this host), unless the user chose them; a
        guest's engine is the run's own and takes compose.yaml's defaults."""
        if self.subnets or not self.engine.shared or set(DEFAULT_SUBNETS) & set(self.user_env):
            return
        def subnets_of_every_network() -> list[str]:
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

    def now(self) -> float:
        return time.time() + self.engine.clock_offset_s

    # -- the Compose project -------------------------------------------------
    def compose_files(self) -> list[Path]:
        """Writes the files this project needs (once) and returns them in Compose's order."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        files = compose_files.static_files(self.datapath)
        for name, document in compose_files.documents(self.shape, images.compose_services(self.datapath)):
            path = self.workdir / name
            path.write_text(yaml.safe_dump(document, sort_keys=False))
            files.append(path)
        return files

    def _env_file(self) -> Path:
        path = self.workdir / "lab.env"
        path.write_text("".join(f"{k}={v}\n" for k, v in sorted(self.env.items())))
        return path

    @property
    def docker(self) -> Any:
        if self._docker is None:
            files = self.compose_files()
            self._docker = self.engine.docker(compose_files=files, compose_project_name=self.project,
                                              compose_env_files=[self._env_file()])
        return self._docker

    def _compose_command(self, *args: str) -> list[str]:
        return [str(a) for a in self.docker.client_config.docker_compose_cmd] + list(args)

    def _compose(self, *args: str, timeout: float | None = None) -> str:
        """Run a compose command quietly; its output only matters when it fails."""
        result = run_bounded(self._compose_command("--progress", "quiet", *args), timeout=timeout)
        if result.returncode:
            output = (result.stdout + result.stderr).strip()[-2000:]
            raise LabError(f"docker compose {' '.join(args)} failed ({result.returncode}):\n{output}")
        return result.stdout

    # -- lifecycle -----------------------------------------------------------
    def build(self, no_cache: bool = False) -> None:
        images.build(self._compose_command(), self.engine, no_cache)

    def up(self, wait: bool = True, preflight: Callable[[Any], object] | None = None,
           timeout_s: float | None = None) -> None:
        """Start the lab; wait=False: return once its containers run, before their health checks
        pass (wait_healthy then waits for them); preflight(kernel): called once the kernel under
        the lab is there, before anything of the lab starts (it refuses what that kernel lacks)."""
        timeout_s = UP_LIMIT_S if timeout_s is None else timeout_s
        self.engine.ensure_started()
        if preflight:
            preflight(self.kernel)
        self._claim_subnets()
        self._reset_nodes()
        started = time.monotonic()
        waiting = ["--wait", "--wait-timeout", str(timeout_s)] if wait and not self._checks_itself() else []
        self._compose("up", "--detach", *waiting, "--remove-orphans", *self.shape.started())
        self._running_services = self.services()
        self._learn_containers()
        if self.shape.in_netns:
            self._make_netns_cells()
        for cell in self.cells:
            if cell.netem:
                self.exec(cell.service, ["tc", "qdisc", "replace", "dev", "eth0", "root", "netem", *cell.netem.split()])
        if wait and self._checks_itself():
            self.wait_healthy(max(1.0, timeout_s - (time.monotonic() - started)))

    def wait_healthy(self, timeout_s: float = 180, only: Iterable[str] | None = None,
                     stopping: threading.Event | None = None) -> None:
        """Until every container with a health check passes it (only: of these services), as Docker
        reports it or, in a guest, as the check run by the lab itself says; a LabError when one
        fails it, stops, or the time is up (health_check_loop.py)."""
        health_check_loop.wait_healthy(self, only or self._running_services, timeout_s, self._checks_itself(),
                                       stopping)

    def _checks_itself(self) -> bool:
        """Whether the lab runs starting containers' checks itself: where its engine spaced Docker's
        checks out (10 s, on this host and in a guest: docs/facts/host.md)."""
        return "HEALTH_INTERVAL" in self.engine.compose_env()

    def check_until_passes(self, service: str, timeout_s: float) -> bool:
        """Whether the service's own health check, run in a loop in its container, passed in time
        (health() then counts it until Docker's own first check of that run of the container)."""
        command = health_check_loop.until_passes(self._health_tests().get(service), timeout_s)
        if command is None:
            return False
        try:
            passed = self.exec(service, command, check=False, timeout=timeout_s + 30).returncode == 0
        except subprocess.TimeoutExpired:
            return False
        if passed and (state := self._container_states().get(service)) is not None:
            self._passed_own_check[service] = state.started_at
        return passed

    def _make_netns_cells(self) -> None:
        """Each cell's namespace in the one client container, made with one exec."""
        front_prefix = self.address(netns_cells.HOST_SERVICE, FRONT).rsplit(".", 1)[0]
        try:
            addresses = netns_cells.plan([cell.name for cell in self.cells], front_prefix)
        except ValueError as exc:
            raise LabError(f"cell namespaces netns: {exc}; use cell namespaces 'container'") from None
        inherited = list(images.compose_services()["client"].get("sysctls", {}))
        script = netns_cells.setup_script([(cell.name, cell.sysctls) for cell in self.cells], addresses, inherited)
        result = self.exec(netns_cells.HOST_SERVICE, ["bash", "-s"], check=False, stdin=script)
        if result.returncode:
            raise LabError(f"{netns_cells.HOST_SERVICE}: making the cells' network namespaces failed "
                           f"({result.stderr.strip()[-300:]}); they need macvlan in the kernel under the lab")
        self._enter_netns_cells(self.cells, addresses)

    def down(self, timeout_s: float = 120) -> None:
        try:
            if self.engine.one_lab:            # the guest is this lab's alone: stopping it takes everything
                self.engine.stop()
            elif self.engine.running():        # a guest that is gone took its lab with it
                compose_down(self.engine, self.project, self._compose, timeout_s)
        finally:
            if self.engine.shared:
                registry.release(self.project)

    def keep(self) -> None:
        """This lab outlives the process that made it (`make up`)."""
        registry.keep(self.project)

    def restart(self, service: str, timeout_s: float = 60) -> None:
        self._compose("restart", "--timeout", "3", service, timeout=timeout_s)

    def problems(self) -> dict[str, str]:
        """{service: what is wrong} for each of the lab's containers that is gone or not running
        (an OOM kill, an exit, a removal, an engine that does not answer)."""
        expected = self._running_services or self.services()
        try:
            found = self._container_states()
        except Exception as exc:                  # the engine itself: restarted, gone
            return {"*": self.engine.problem() or f"the Docker engine does not answer ({str(exc).strip()[:200]})"}
        problems = {}
        for service in expected:
            state = found.get(service)
            if state is None or state.status == "removing":
                problems[service] = f"{service}: its container is gone"
            elif state.status != "running":
                why = "OOM-killed" if state.oom_killed else f"exit code {state.exit_code}"
                problems[service] = f"{service}: {state.status} ({why})"
        return problems

    def services(self) -> list[str]:
        """The services this lab runs."""
        if self.shape.servers is None:
            return sorted(self.docker.compose.config(return_json=True)["services"])
        return sorted(self.shape.started())

    def health(self) -> dict[str, str]:
        """{service: health} of the lab's containers ('healthy', 'starting', or without a health
        check their state: 'running', 'exited', ...)."""
        return container_states.health_of(self._container_states(), self._passed_own_check)

    # -- the place -----------------------------------------------------------
    @property
    def can_be_kept(self) -> bool:
        return self.engine.shared

    @property
    def where(self) -> str:
        """The place's name as env.json records it: host or guest."""
        return self.engine.where

    def stop_place(self) -> None:
        """Stop what the place runs besides the lab (a kept guest); this host's engine stays."""
        self.engine.stop()

    def describe(self) -> dict[str, Any]:
        """Its parts asked for side by side (a run records this while its clients start)."""
        with ThreadPoolExecutor(4) as pool:
            kernel, images_running = pool.submit(self.engine.kernel_release), pool.submit(self._images_running)
            version = pool.submit(self._compose, "version", "--short")
            defaults = pool.submit(self.engine.sysctl_defaults)
        env = self.env
        return {"kernel": kernel.result(), "where": self.engine.describe(),
                "kernel_facts": {"hz": self.engine.hz(), "sysctl_defaults": defaults.result()},
                "lab": {"project": self.project,
                        **{side: env.get(name, DEFAULT_SUBNETS[name])
                           for side, name in (("front", "LAB_FRONT_PREFIX"), ("back", "LAB_BACK_PREFIX"))}},
                "images": images_running.result(), "docker_compose": version.result().strip()}

    def _images_running(self) -> dict[str, str]:
        """{service: image id} of the running containers."""
        rows = container_states.inspect_project(container_states.command_of(self.engine.docker()), self.project,
                                                (container_states.SERVICE_FIELD, "{{.Image}}", "{{.State.Running}}"))
        return {service: image for service, image, running in rows if running == "true"}

    def networks(self) -> list[Any]:
        return self.docker.network.list(filters={"label": f"com.docker.compose.project={self.project}"})
