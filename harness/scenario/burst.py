"""The `burst:` form of a scenario (backlog-overflow) -> a validated, frozen BurstScenario."""
import dataclasses
from typing import Any, ClassVar

from .. import topology
from .knobs import SYSCTL_KNOBS
from .model import Cell, Step
from .reader import Reader, ScenarioError

SERVERS = ("web-a", "web-b")
TARGETS = ("upstream", "nginx")      # the slow server directly (connect timing) or through nginx


@dataclasses.dataclass(frozen=True)
class Server:
    name: str
    backlog: int = 128
    somaxconn: int = 4096
    abort_on_overflow: int = 0
    syncookies: int = 1

    def lab_env(self) -> dict[str, str]:
        prefix = self.name.upper().replace("-", "_")
        return {f"{prefix}_BACKLOG": str(self.backlog), f"{prefix}_SOMAXCONN": str(self.somaxconn),
                f"{prefix}_ABORT_ON_OVERFLOW": str(self.abort_on_overflow),
                f"{prefix}_SYNCOOKIES": str(self.syncookies)}


@dataclasses.dataclass(frozen=True)
class BurstCell:
    name: str
    server: str
    target: str
    cell: Cell                       # the client's namespace sysctls (tcp_syn_retries, ...)

    @property
    def namespace(self) -> str:
        return self.cell.namespace

    @property
    def service(self) -> str:
        return self.cell.service


@dataclasses.dataclass(frozen=True)
class BurstScenario:
    id: str
    description: str
    connections: int
    accept_delay_ms: int
    proxy_connect_timeout_s: float
    proxy_read_timeout_s: float
    servers: tuple[Server, ...]
    cells: tuple[BurstCell, ...]
    datapath: str = topology.DEFAULT_DATAPATH

    kind = "burst"
    steps: ClassVar[tuple[Step, ...]] = ()      # a burst has no fault steps

    def servers_used(self) -> tuple[str, ...]:
        return SERVERS

    def lab_env(self) -> dict[str, str]:
        env = {"SLOW_ACCEPT_DELAY_MS": str(self.accept_delay_ms),
               "PROXY_CONNECT_TIMEOUT": f"{self.proxy_connect_timeout_s:g}s",
               "PROXY_READ_TIMEOUT": f"{self.proxy_read_timeout_s:g}s"}
        for server in self.servers:
            env.update(server.lab_env())
        return env


def parse(raw: object, source: str, scenario_id: str) -> BurstScenario:
    try:
        return _parse(raw, scenario_id)
    except ScenarioError as exc:
        raise ScenarioError(f"{source}: {exc}") from None


def _read_server(name: str, spec: object) -> Server:
    if name not in SERVERS:
        raise ScenarioError(f"burst.servers.{name}: {topology.unknown_server(name, SERVERS)}")
    s = Reader(spec, f"burst.servers.{name}", {"backlog", "somaxconn", "abort_on_overflow", "syncookies"})
    return Server(name, s.get("backlog", int, 128, minimum=1, maximum=65535),
                  s.get("somaxconn", int, 4096, minimum=1, maximum=65535),
                  s.get("abort_on_overflow", int, 0, choices=(0, 1)),
                  s.get("syncookies", int, 1, choices=(0, 1, 2)))


def _read_cell(raw: object, where: str) -> BurstCell:
    c = Reader(raw, where, {"name", "server", "target", *SYSCTL_KNOBS})
    name = c.name("name", required=True)
    return BurstCell(name, c.get("server", str, required=True, choices=SERVERS),
                     c.get("target", str, "upstream", choices=TARGETS), Cell(name, c.sysctls(SYSCTL_KNOBS)))


def _parse(raw: Any, scenario_id: str) -> BurstScenario:
    r = Reader(raw, "", {"description", "burst", "cells", "datapath"})
    b = Reader(r.get("burst", dict, required=True), "burst",
               {"connections", "accept_delay_ms", "proxy_connect_timeout_s", "proxy_read_timeout_s", "servers"})
    servers = tuple(_read_server(name, spec) for name, spec in b.get("servers", dict, {}).items())
    cells = tuple(_read_cell(c, f"cells[{i}]") for i, c in enumerate(r.get("cells", list, required=True)))
    if not cells:
        raise ScenarioError("cells: at least one cell is needed")
    return BurstScenario(
        id=scenario_id, description=r.get("description", str, ""),
        connections=b.get("connections", int, 30, minimum=1, maximum=500),
        accept_delay_ms=b.get("accept_delay_ms", int, 200, minimum=0, maximum=10_000),
        proxy_connect_timeout_s=b.get("proxy_connect_timeout_s", "duration", 2.0, maximum=600),
        proxy_read_timeout_s=b.get("proxy_read_timeout_s", "duration", 4.0, maximum=600),
        servers=servers, cells=cells,
        datapath=r.get("datapath", str, topology.DEFAULT_DATAPATH, choices=topology.DATAPATHS),
    )
