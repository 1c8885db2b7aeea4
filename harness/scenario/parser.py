"""A raw failover scenario (as loaded from YAML) -> a validated Scenario. The only reader of
the fault registry: a step names a fault, and the fault's own settings (its params) say what it takes."""
import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any

from .. import topology
from ..databases import DATABASES, DEFAULT_DATABASE
from ..faults.base import FAULTS
from ..load.clients import CLIENTS, DEFAULT_CLIENT
from ..load.driver_settings import TARGET_SESSION_ATTRS
from ..pools import POOLS
from .client_settings import check_name_lookups, read_client, read_hosts, read_pool
from .control import check_lab_settings, director_variants, needs_ipvs, read_control
from .engine_fit import check_accounts, check_engine, check_steps
from .knobs import LINK_KNOBS, SYSCTL_KNOBS
from .loads import paced, read_lb, read_load, read_replication
from .model import ACCOUNTS, Cell, Scenario, Step
from .reader import Reader, ScenarioError
from .setting_reader import read_setting

# Keys of a cell besides its sysctls; a client's settings go under the client's name.
CELL_OPTIONS = ("name", "tcp_user_timeout_ms", "keepalive", "read_timeout_s", "connect_timeout_s", "idle_s",
                "target_session_attrs", "sysbench",
                "connections", "waited_for", "hosts",
                "client", "director", "account", "pool", *LINK_KNOBS)
CELL_KEYS = frozenset(CELL_OPTIONS) | frozenset(SYSCTL_KNOBS) | frozenset(CLIENTS) | frozenset(POOLS)
LB_ENV_KEYS = {"LB_IDLE_TIMEOUT": "idle_timeout_s", "LB_CONNTRACK_LOOSE": "conntrack_loose"}   # lb: keys
TOP_KEYS = {"description", "load", "cells", "matrix", "steps", "warmup_s", "observe_s", "datapath", "lb",
            "namespaces", "control", "database", "replication"}


def parse(raw: object, source: str = "<scenario>", scenario_id: str | None = None) -> Scenario:
    """A raw mapping -> Scenario, or ScenarioError naming `source` and the field."""
    try:
        return _parse(raw, scenario_id)
    except ScenarioError as exc:
        raise ScenarioError(f"{source}: {exc}") from None


def read_cell(raw: object, where: str, directors: Sequence[str] = ()) -> Cell:
    """directors: the director variants the scenario's control plane runs (a cell may name one)."""
    r = Reader(raw, where, CELL_KEYS)
    client, settings, driver_timeout_s = read_client(r)
    if client != DEFAULT_CLIENT:
        for key in ("read_timeout_s", "connect_timeout_s", "idle_s", "target_session_attrs"):
            if key in r.raw:
                raise ScenarioError(f"{r.path(key)}: a knob of the lab's own probe; {client} takes its own "
                                    f"settings under `{client}:`")
    pool, pool_settings = read_pool(r)
    keepalive: tuple[int, ...] = ()
    if "keepalive" in r.raw:
        text = r.get("keepalive", str)
        parts = text.split("/")
        if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
            raise ScenarioError(f"{r.path('keepalive')}: IDLE/INTERVAL/PROBES in whole seconds, e.g. '5/1/3', "
                                f"not {text!r}")
        keepalive = tuple(map(int, parts))
    cell = Cell(
        name="",
        sysctls=r.sysctls(SYSCTL_KNOBS),
        tcp_user_timeout_ms=r.get("tcp_user_timeout_ms", int, 0, minimum=0, maximum=3_600_000),
        keepalive=keepalive,
        read_timeout_s=driver_timeout_s or r.get("read_timeout_s", "duration", 0.0, maximum=3600),
        connect_timeout_s=r.get("connect_timeout_s", "duration", None, maximum=3600),
        idle_s=r.get("idle_s", "duration", 0.0, maximum=3600),
        target_session_attrs=r.get("target_session_attrs", str, None, choices=TARGET_SESSION_ATTRS),
        sysbench=_sysbench_beside(r, client),
        link=_read_link(r, r.raw),
        client=client, client_settings=settings,
        director=_director(r, directors),
        account=r.get("account", str, "shared", choices=ACCOUNTS),
        pool=pool, pool_settings=pool_settings,
        waited_for=r.get("waited_for", bool, True),
        hosts=read_hosts(r, client),
    )
    return dataclasses.replace(cell, name=r.name("name") or cell_name(cell))


def _read_link(r: Reader, raw: dict[str, Any]) -> tuple[tuple[str, float], ...]:
    link = tuple((key, r.get(key, float, minimum=low, maximum=high))
                 for key, (_, _, low, high, _) in LINK_KNOBS.items() if raw.get(key))
    if dict(link).get("link_jitter_ms") and not dict(link).get("link_delay_ms"):
        raise ScenarioError(f"{r.path('link_jitter_ms')}: jitter varies a delay; give link_delay_ms too")
    return link


def _director(r: Reader, directors: Sequence[str]) -> str | None:
    if "director" in r.raw and not directors:
        raise ScenarioError(f"{r.path('director')}: this scenario runs one director; more come with "
                            "control: {keepalived: {directors: {NAME: {...}}}}")
    return r.get("director", str, None, choices=directors)


def _sysbench_beside(r: Reader, client: str) -> bool:
    """Whether a sysbench load runs beside the cell's client (by default only beside the probe)."""
    beside = r.get("sysbench", bool, client == DEFAULT_CLIENT)
    if beside and client == "sysbench":
        raise ScenarioError(f"{r.path('sysbench')}: the cell's client is sysbench already")
    return beside


def _read_cells(raw: dict[str, Any], where: str, directors: Sequence[str] = ()) -> list[Cell]:
    """A cell entry; with `connections: N` it stands for N connections, each a cell of its own."""
    connections = Reader(raw, where, CELL_KEYS).get("connections", int, 1, minimum=1, maximum=32)
    cell = read_cell({k: v for k, v in raw.items() if k != "connections"}, where, directors)
    if connections == 1:
        return [cell]
    return [dataclasses.replace(cell, name=f"{cell.name}-c{i}") for i in range(1, connections + 1)]


def cell_name(cell: Cell) -> str:
    """A cell's name derived from its knobs: r5-ut5000-ka5-1-3-rt2-idle, jdbc-r5-rt3."""
    name = f"r{cell.knob('tcp_retries2')}"
    if cell.client != DEFAULT_CLIENT:
        name = f"{cell.client}-{name}"
    if cell.tcp_user_timeout_ms:
        name += f"-ut{cell.tcp_user_timeout_ms}"
    if cell.keepalive:
        name += "-ka" + "-".join(map(str, cell.keepalive))
    elif "tcp_keepalive_time" in dict(cell.sysctls):
        name += f"-kt{cell.knob('tcp_keepalive_time')}"
    if cell.read_timeout_s:
        name += f"-rt{cell.read_timeout_s:g}".replace(".", "p")
    if cell.idle_s:
        name += "-idle"
    if cell.target_session_attrs:
        name += f"-{cell.target_session_attrs}"
    if cell.director:
        name += f"-{cell.director}"
    if cell.account != "shared":
        name += f"-{cell.account}-account"
    if cell.pool:
        name += f"-{cell.pool}" + "".join(f"-{key.replace('_', '')}{value}" for key, value in cell.pool_settings)
    for key, value in cell.sysctls:
        if SYSCTL_KNOBS[key].since:                   # the kernel-specific ones say so in the name
            name += f"-{SYSCTL_KNOBS[key].abbreviation}{value}"
    for key, amount in cell.link:
        name += f"-{LINK_KNOBS[key][4]}{amount:g}".replace(".", "p")
    for key, value in cell.client_settings:
        if key != CLIENTS[cell.client].read_timeout:
            name += f"-{key.lower()}{value}".replace(".", "p")
    return name


def _read_matrix(raw: object, directors: Sequence[str] = ()) -> list[Cell]:
    """{knob: [values], ...} -> the cells of every combination, validated like any cell."""
    if not isinstance(raw, dict) or not raw:
        raise ScenarioError("matrix: must be a mapping of knob: [values]")
    knobs = CELL_KEYS - {"name"}
    for key, values in raw.items():
        if key not in knobs:
            raise ScenarioError(f"matrix.{key}: unknown knob (knobs: {', '.join(sorted(knobs))})")
        if not isinstance(values, list) or not values:
            raise ScenarioError(f"matrix.{key}: must be a non-empty list of values")
    keys = list(raw)
    cells = []
    for combination in itertools.product(*(raw[k] for k in keys)):
        label = ", ".join(f"{k}={v}" for k, v in zip(keys, combination))
        cells.append(read_cell(dict(zip(keys, combination)), f"matrix({label})", directors))
    return cells


def _read_step(raw: object, where: str, cells: Sequence[Cell], injected: set[str]) -> Step:
    if not isinstance(raw, dict) or len({"fault", "heal", "wait"} & set(raw)) != 1:
        raise ScenarioError(f"{where}: a step is one of {{fault: NAME, ...}}, {{heal: NAME}} or {{wait: DURATION}}")
    if "wait" in raw:
        return Step("wait", seconds=Reader(raw, where, {"wait"}).get("wait", "duration", maximum=3600))
    if "heal" in raw:
        name = Reader(raw, where, {"heal"}).get("heal", str)
        if name not in injected:
            raise ScenarioError(f"{where}.heal: no earlier fault step injects {name!r}")
        return Step("heal", name=name)
    name = raw["fault"]
    if not isinstance(name, str) or name not in FAULTS:
        raise ScenarioError(f"{where}.fault: unknown fault {name!r} (faults: {', '.join(sorted(FAULTS))})")
    spec = FAULTS[name].params
    r = Reader(raw, where, {"fault", *spec})
    params = []
    for key, param in spec.items():
        if key in raw:
            params.append((key, read_setting(param, raw[key], r.path(key), {c.service for c in cells})))
        elif param.default is None:
            raise ScenarioError(f"{r.path(key)}: required by fault {name}")
        else:
            params.append((key, param.default))
    problem = FAULTS[name].problem(dict(params))
    if problem:
        raise ScenarioError(f"{where}: {problem}")
    injected.add(name)
    return Step("fault", name=name, params=tuple(params), fault=FAULTS[name])


def _parse(raw: Any, scenario_id: str | None) -> Scenario:
    r = Reader(raw, "", TOP_KEYS)
    sysbench, probe, wrk, connect, writer = read_load(r)
    lb = read_lb(raw)
    database = r.get("database", str, DEFAULT_DATABASE, choices=tuple(sorted(DATABASES)))
    control, control_settings = read_control(raw)
    directors = director_variants(control_settings)
    if needs_ipvs(control, control_settings) and raw.get("datapath") == "nftables":
        raise ScenarioError(f"datapath: control: {control} programs IPVS; it cannot run on the nftables datapath")
    raw_cells = r.get("cells", list, [])
    cells = tuple(cell for i, c in enumerate(raw_cells) for cell in _read_cells(c, f"cells[{i}]", directors))
    if "matrix" in raw:
        cells += tuple(_read_matrix(raw["matrix"], directors))
    if not cells:
        raise ScenarioError("cells: at least one cell is needed (cells: [...] or matrix: {...})")
    zoo = next((c for c in cells if c.client != DEFAULT_CLIENT), None)
    if zoo and probe.proto != "mysql":
        raise ScenarioError(f"cells: {zoo.name} uses the {zoo.client} client, a database driver; load.probe.proto "
                            f"is {probe.proto}")
    check_name_lookups(cells, control)
    on_sysbench = next((c for c in cells if c.client == "sysbench"), None)
    if on_sysbench and sysbench is None:
        raise ScenarioError(f"cells: {on_sysbench.name} uses the sysbench client, which runs on the tables of "
                            f"load.sysbench; add load: {{sysbench: {{}}}}")
    names = [c.name for c in cells]
    if len(set(names)) != len(names):
        duplicate = next(n for n in names if names.count(n) > 1)
        raise ScenarioError(f"cells: two cells are named {duplicate!r}; give them distinct names")
    check_accounts(cells, probe)
    engine = DATABASES[database]()
    check_engine(engine, control, cells, control_settings)
    writer = writer and dataclasses.replace(writer, proto=engine.wire_protocol)

    raw_steps = r.get("steps", list, required=True)
    injected: set[str] = set()
    steps = tuple(_read_step(s, f"steps[{i}]", cells, injected) for i, s in enumerate(raw_steps))
    if not any(s.kind == "fault" for s in steps):
        raise ScenarioError("steps: at least one fault step is needed")
    check_steps(engine, control, steps)
    fault_settings = _fault_settings(steps)
    observe_s = r.get("observe_s", "duration", 60.0, maximum=7200)
    datapath = r.get("datapath", str, topology.DEFAULT_DATAPATH, choices=topology.DATAPATHS)
    given_lb = raw.get("lb") or {}
    asked = [(k, v, "lb") for k, v in lb.lab_env().items() if LB_ENV_KEYS[k] in given_lb]
    asked += [(k, v, "steps") for k, v in fault_settings]
    check_lab_settings(control, control_settings, asked, datapath)

    return Scenario(
        id=scenario_id or "adhoc",
        description=r.get("description", str, ""),
        cells=cells, steps=steps,
        warmup_s=r.get("warmup_s", "duration", 10.0, maximum=3600),
        observe_s=observe_s,
        sysbench=paced(sysbench and dataclasses.replace(sysbench, driver=engine.sysbench_driver),
                       observe_s + sum(st.seconds for st in steps)), probe=probe,
        datapath=datapath, wrk=wrk, connect=connect, writer=writer, lb=lb, fault_settings=fault_settings,
        cell_namespaces=r.get("namespaces", str, topology.DEFAULT_CELL_NAMESPACES, choices=topology.CELL_NAMESPACES),
        control=control, control_settings=control_settings,
        database=database, replication=read_replication(raw, database),
    )


def _fault_settings(steps: Sequence[Step]) -> tuple[tuple[str, Any], ...]:
    """What the scenario's faults need the lab to start with; two faults wanting different
    values of one setting cannot share a lab."""
    wanted: dict[str, Any] = {}
    for index, step in enumerate(steps):
        if step.kind != "fault":
            continue
        for key, value in step.make_fault().lab_settings().items():
            if key in wanted and wanted[key][0] != value:
                raise ScenarioError(f"steps[{index}]: {step.name} needs {key}={value}, but steps[{wanted[key][1]}] "
                                    f"needs {wanted[key][0]}; one director cannot start with both")
            wanted.setdefault(key, (value, index))
    return tuple(sorted((key, value) for key, (value, _) in wanted.items()))
