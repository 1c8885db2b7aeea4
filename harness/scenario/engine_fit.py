"""Whether a scenario's parts fit the database engine it runs: each refusal names the part."""
from collections.abc import Sequence
from typing import Any

from ..control.base import CONTROL_PLANES
from ..control.haproxy_settings import MYSQL_HANDSHAKE_CHECKS
from ..databases.base import DatabaseEngine
from ..load.clients import CLIENTS, DEFAULT_CLIENT, PROTOCOL_TITLES
from ..pools import POOLS
from .model import Cell, Probe, Step
from .reader import ScenarioError

ZOO_OF_PROTOCOL = {"postgres": " (all of them: make scenario=client-zoo-pg)"}


def check_engine(engine: DatabaseEngine, control: str, cells: Sequence[Cell],
                 control_settings: Sequence[tuple[str, Any]]) -> None:
    """What a scenario runs that the engine cannot take, refused by name: a control plane made for
    another engine, a client speaking another protocol, what works only against MySQL's."""
    plane_databases = CONTROL_PLANES[control].databases
    if plane_databases and engine.name not in plane_databases:
        raise ScenarioError(f"control: {control} runs with database {' or '.join(plane_databases)} "
                            f"(DB_ENGINE={plane_databases[0]}), not {engine.name}")
    speaks_other = next((c for c in cells if c.client != DEFAULT_CLIENT
                         and CLIENTS[c.client].protocol != engine.wire_protocol), None)
    if speaks_other:
        raise ScenarioError(f"cells: {speaks_other.name} uses the {speaks_other.client} client, a "
                            f"{PROTOCOL_TITLES[CLIENTS[speaks_other.client].protocol]} driver: not on {engine.title} "
                            f"(database: {engine.name}); its drivers: "
                            f"{', '.join(n for n, c in CLIENTS.items() if c.protocol == engine.wire_protocol)}"
                            f"{ZOO_OF_PROTOCOL.get(engine.wire_protocol, '')}")
    check_pools(engine, cells)
    check_probe_library(engine, cells)
    mysql_check = next((c for c in MYSQL_HANDSHAKE_CHECKS if _names_setting(control_settings, ("check", c))), None)
    if engine.wire_protocol == "mysql":
        if mysql_check and engine.haproxy_mysql_check_fails:
            raise ScenarioError(f"control: check: {mysql_check}: {engine.haproxy_mysql_check_fails}")
        return
    mysql_only = [f"cells: {c.name} logs in with an account of its own (MySQL's login cache)"
                  for c in cells if c.account != "shared"]
    if mysql_check:
        mysql_only.append(f"control: check: {mysql_check} speaks MySQL's handshake")
    if mysql_only:
        raise ScenarioError(f"{mysql_only[0]}: not on {engine.title} (database: {engine.name}) yet")


def check_steps(engine: DatabaseEngine, control: str, steps: Sequence[Step]) -> None:
    """A fault step made for another control plane's directors, or one the engine cannot do."""
    for i, step in enumerate(steps):
        planes = step.fault.control_planes if step.fault else ()
        if planes and control not in planes:
            raise ScenarioError(f"steps[{i}]: {step.name} acts on directors run by {' or '.join(planes)}; "
                                f"this scenario's control is {control}")
        why = step.fault.engine_problem(engine) if step.fault else None
        if why:
            raise ScenarioError(f"steps[{i}]: {step.name}: {why}")


def check_pools(engine: DatabaseEngine, cells: Sequence[Cell]) -> None:
    """A pool speaks its engines' protocol, logs every client in as the lab's account, and is not
    modelled for an idle client (its own server leg would be the idle one)."""
    for cell in cells:
        if cell.pool is None:
            continue
        pool = POOLS[cell.pool]
        if engine.wire_protocol not in pool.protocols:
            raise ScenarioError(f"cells: {cell.name} goes through {cell.pool}, which speaks "
                                f"{' and '.join(PROTOCOL_TITLES[p] for p in pool.protocols)}: not on {engine.title} "
                                f"(database: {engine.name}; DB_ENGINE=postgres)")
        if cell.account != "shared":
            raise ScenarioError(f"cells: {cell.name}: {cell.pool} logs every client in as the lab's account; "
                                "account: is not for a cell behind it")
        if cell.idle_s:
            raise ScenarioError(f"cells: {cell.name}: idle_s behind {cell.pool} is not modelled (the pool's "
                                "server leg is the idle one, with its own keepalive)")


def check_probe_library(engine: DatabaseEngine, cells: Sequence[Cell]) -> None:
    """The lab's probe speaks the engine's own library: a host list and its connect timeout as that
    library takes them (PyMySQL one host; libpq a host list, its connect_timeout whole seconds)."""
    for cell in (c for c in cells if c.client == DEFAULT_CLIENT):
        library = engine.probe_title or (engine.probe_library or ("PyMySQL",))[0]
        if cell.hosts and not engine.probe_host_list:
            takes = ", ".join(name for name, c in CLIENTS.items() if c.host_list)
            raise ScenarioError(f"cells: {cell.name}: hosts: the lab's probe on {engine.title} ({library}) takes one "
                                f"host (a host list: libpq, the probe on PostgreSQL; {takes})")
        if cell.target_session_attrs and not engine.probe_session_attrs:
            raise ScenarioError(f"cells: {cell.name}: target_session_attrs: libpq's; the lab's probe on {engine.title} "
                                f"({library}) has none")
        try:
            engine.probe_connect_timeout_s(cell.connect_timeout_s)
        except ValueError as exc:
            raise ScenarioError(f"cells: {cell.name}: connect_timeout_s: {exc}") from None


def _names_setting(settings: Sequence[Any], pair: tuple[str, Any]) -> bool:
    """Whether (name, value) is among settings' pairs, a director variant's included."""
    return any(item == pair or (isinstance(item, tuple) and _names_setting(item, pair)) for item in settings)


def check_accounts(cells: Sequence[Cell], probe: Probe) -> None:
    own = [c for c in cells if c.account != "shared"]
    if own and probe.proto != "mysql":
        raise ScenarioError(f"cells: {own[0].name} logs in with an account of its own; load.probe.proto is "
                            f"{probe.proto}, not mysql")
    users: dict[str, str] = {}
    for cell in own:
        if not cell.name.replace("-", "").replace("_", "").isalnum():
            raise ScenarioError(f"cells: {cell.name!r} names its account: letters, digits, '-' and '_' only")
        other = users.setdefault(cell.database_user, cell.name)
        if other != cell.name:
            raise ScenarioError(f"cells: {other} and {cell.name} would log in as one account "
                                f"({cell.database_user}); shorten their names")
