"""A cell's client and the driver's own settings, and the pool it goes through, as a scenario gives them."""
from collections.abc import Mapping, Sequence
from typing import Any

from .. import topology
from ..control.abilities import ConnectsByName
from ..control.base import CONTROL_PLANES
from ..load.clients import CLIENTS, DEFAULT_CLIENT
from ..pools import POOLS
from ..setting import Setting
from .model import Cell
from .reader import Reader, ScenarioError
from .setting_reader import read_setting


def read_client(r: Reader) -> tuple[str, tuple[tuple[str, Any], ...], float]:
    """(client, settings, read timeout s) of a cell: `client: NAME` and/or `NAME: {setting: value}`.
    A cell's `sysbench:` is the switch that adds a sysbench load beside its client, never settings."""
    given = [name for name in CLIENTS if name in r.raw and name != "sysbench"]
    client = r.get("client", str, given[0] if given else DEFAULT_CLIENT, choices=tuple(CLIENTS))
    if any(name != client for name in given):
        other = next(name for name in given if name != client)
        raise ScenarioError(f"{r.path(other)}: settings for {other}, but the cell's client is {client}")
    spec = CLIENTS[client]
    if client not in r.raw or client == "sysbench":
        return client, (), 0.0
    if not spec.settings:
        raise ScenarioError(f"{r.path(client)}: {client} takes no settings here (use the cell's own knobs)")
    settings = _read_settings(Reader(r.get(client, dict), r.path(client), spec.settings), spec.settings)
    return client, settings, spec.read_timeout_s(settings)


def read_hosts(r: Reader, client: str) -> tuple[str, ...]:
    """`hosts: [db-primary, db-replica]`: the servers a client that takes several hosts lists, in order."""
    if "hosts" not in r.raw:
        return ()
    hosts = r.get("hosts", list)
    servers = topology.PROTOCOL_SERVERS["mysql"]
    if not CLIENTS[client].host_list and client != DEFAULT_CLIENT:     # the probe's: scenario/engine_fit.py
        takes = ", ".join(name for name, c in CLIENTS.items() if c.host_list)
        raise ScenarioError(f"{r.path('hosts')}: {client} takes one host here (a host list: {takes}; libpq, the "
                            "lab's probe on PostgreSQL)")
    if (len(hosts) < 2 or not all(isinstance(h, str) for h in hosts) or len(set(hosts)) != len(hosts)
            or any(h not in servers for h in hosts)):
        raise ScenarioError(f"{r.path('hosts')}: two or more of {', '.join(servers)}, each once, in the order the "
                            f"client tries them, not {hosts!r}")
    return tuple(hosts)


def read_pool(r: Reader) -> tuple[str | None, tuple[tuple[str, Any], ...]]:
    """(pool, its settings) of a cell: `pool: NAME` and its settings under `NAME: {setting: value}`."""
    given = [name for name in POOLS if name in r.raw]
    pool = r.get("pool", str, given[0] if given else None, choices=tuple(POOLS))
    if any(name != pool for name in given):
        other = next(name for name in given if name != pool)
        raise ScenarioError(f"{r.path(other)}: settings for {other}, but the cell's pool is {pool}")
    if pool is None or pool not in r.raw:
        return pool, ()
    spec = POOLS[pool].settings
    return pool, _read_settings(Reader(r.get(pool, dict), r.path(pool), spec), spec)


def _read_settings(s: Reader, spec: Mapping[str, Setting]) -> tuple[tuple[str, Any], ...]:
    settings = []
    for key, setting in spec.items():
        if key not in s.raw:
            continue
        settings.append((key, read_setting(setting, s.raw[key], s.path(key))))
    return tuple(settings)


def check_name_lookups(cells: Sequence[Cell], control: str) -> None:
    """A setting of the JVM's name cache changes something only where the clients look a name up: under
    a plane they connect to by name (control: dns); through a VIP's address it changes nothing. A host
    list names the servers themselves, which only that plane puts where the clients reach them."""
    if isinstance(CONTROL_PLANES[control](()), ConnectsByName):
        return
    for cell in cells:
        if cell.hosts:
            raise ScenarioError(f"cells: {cell.name}: hosts: the servers' own names are answered only under "
                                f"control: dns (control: {control} puts them behind a VIP the clients cannot pass)")
        for key, _ in cell.client_settings:
            if CLIENTS[cell.client].settings[key].jvm_security:
                raise ScenarioError(f"cells: {cell.name}: {key} changes nothing here: its client connects to the VIP's "
                                    f"address, never a name (control: {control}); it matters under control: dns")
