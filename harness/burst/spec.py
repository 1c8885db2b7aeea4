"""The `burst:` form of a scenario -> a validated, frozen BurstScenario (no side effects)."""
import dataclasses

from ..scenario import NAME_RE, SYSCTL_KNOBS, Cell, ScenarioError, _Reader

SERVERS = ("web-a", "web-b")
TARGETS = ("upstream", "nginx")      # the slow server directly (connect timing) or through nginx


@dataclasses.dataclass(frozen=True)
class Server:
    name: str
    backlog: int = 128
    somaxconn: int = 4096
    abort_on_overflow: int = 0
    syncookies: int = 1

    def lab_env(self):
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
    def namespace(self):
        return self.cell.namespace

    @property
    def service(self):
        return self.cell.service


@dataclasses.dataclass(frozen=True)
class BurstScenario:
    id: str
    description: str
    connections: int
    accept_delay_ms: int
    proxy_connect_timeout_s: float
    proxy_read_timeout_s: float
    servers: tuple
    cells: tuple
    datapath: str = "auto"

    def lab_env(self):
        env = {"SLOW_ACCEPT_DELAY_MS": str(self.accept_delay_ms),
               "PROXY_CONNECT_TIMEOUT": f"{self.proxy_connect_timeout_s:g}s",
               "PROXY_READ_TIMEOUT": f"{self.proxy_read_timeout_s:g}s"}
        for server in self.servers:
            env.update(server.lab_env())
        return env


def parse(raw, source, scenario_id):
    try:
        return _parse(raw, scenario_id)
    except ScenarioError as exc:
        raise ScenarioError(f"{source}: {exc}") from None


def _parse(raw, scenario_id):
    r = _Reader(raw, "", {"description", "burst", "cells", "datapath"})
    b = _Reader(r.get("burst", dict, required=True), "burst",
                {"connections", "accept_delay_ms", "proxy_connect_timeout_s", "proxy_read_timeout_s", "servers"})
    servers = []
    raw_servers = b.get("servers", dict, {})
    for name, spec in raw_servers.items():
        if name not in SERVERS:
            raise ScenarioError(f"burst.servers.{name}: unknown server (servers: {', '.join(SERVERS)})")
        s = _Reader(spec, f"burst.servers.{name}", {"backlog", "somaxconn", "abort_on_overflow", "syncookies"})
        servers.append(Server(name, s.get("backlog", int, 128, minimum=1, maximum=65535),
                              s.get("somaxconn", int, 4096, minimum=1, maximum=65535),
                              s.get("abort_on_overflow", int, 0, choices=(0, 1)),
                              s.get("syncookies", int, 1, choices=(0, 1, 2))))
    cells = []
    for i, raw_cell in enumerate(r.get("cells", list, required=True)):
        where = f"cells[{i}]"
        c = _Reader(raw_cell, where, {"name", "server", "target", *SYSCTL_KNOBS})
        name = c.get("name", str, required=True)
        if not NAME_RE.match(name):
            raise ScenarioError(f"{where}.name: {name!r} must be lower-case letters, digits and '-'")
        sysctls = tuple((k, c.get(k, int, minimum=lo, maximum=hi)) for k, (_, lo, hi) in SYSCTL_KNOBS.items()
                        if k in raw_cell)
        cells.append(BurstCell(name, c.get("server", str, required=True, choices=SERVERS),
                               c.get("target", str, "upstream", choices=TARGETS), Cell(name, sysctls)))
    if not cells:
        raise ScenarioError("cells: at least one cell is needed")
    return BurstScenario(
        id=scenario_id, description=r.get("description", str, ""),
        connections=b.get("connections", int, 30, minimum=1, maximum=500),
        accept_delay_ms=b.get("accept_delay_ms", int, 200, minimum=0, maximum=10_000),
        proxy_connect_timeout_s=b.get("proxy_connect_timeout_s", "duration", 2.0),
        proxy_read_timeout_s=b.get("proxy_read_timeout_s", "duration", 4.0),
        servers=tuple(servers), cells=tuple(cells),
        datapath=r.get("datapath", str, "auto", choices=("auto", "ipvs", "nftables")),
    )
