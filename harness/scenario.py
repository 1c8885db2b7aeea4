"""scenarios/<id>.yaml -> a validated, frozen Scenario. No side effects.

Every error names the file and the field, e.g.
  scenarios/x.yaml: steps[1].nodest: must be one of drop, reset, not 'boom'
"""
import dataclasses
import itertools
import re
from pathlib import Path

import yaml

from .faults import FAULTS, Param

SCENARIO_DIR = Path(__file__).resolve().parent.parent / "scenarios"
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,30}$")
SERVERS = ("mysql-primary", "mysql-replica", "web-a", "web-b")
NODES = ("director",) + SERVERS
PROTOCOLS = ("mysql", "http")
# Cell knob -> the per-namespace sysctl it sets.
SYSCTL_KNOBS = {
    "tcp_retries2": ("net.ipv4.tcp_retries2", 1, 255),
    "tcp_syn_retries": ("net.ipv4.tcp_syn_retries", 1, 127),
    "tcp_keepalive_time": ("net.ipv4.tcp_keepalive_time", 1, 32767),
    "tcp_keepalive_intvl": ("net.ipv4.tcp_keepalive_intvl", 1, 32767),
    "tcp_keepalive_probes": ("net.ipv4.tcp_keepalive_probes", 1, 127),
}
KERNEL_DEFAULTS = {"tcp_retries2": 15, "tcp_syn_retries": 6, "tcp_keepalive_time": 7200,
                   "tcp_keepalive_intvl": 75, "tcp_keepalive_probes": 9}


TYPE_NAMES = {dict: "a mapping", list: "a list", int: "an integer", float: "a number", str: "a string"}


class ScenarioError(ValueError):
    """Raised with a message naming the file and the field."""


@dataclasses.dataclass(frozen=True)
class Cell:
    """One measured client: namespace sysctls, per-socket options, application behaviour.
    Cells with the same sysctls share a client container (a network namespace)."""
    name: str
    sysctls: tuple = ()              # (("tcp_retries2", 5), ...): only knobs the scenario set
    tcp_user_timeout_ms: int = 0     # TCP_USER_TIMEOUT on its sockets (0: unset)
    keepalive: tuple = ()            # (idle_s, interval_s, probes) set per socket; (): not set
    read_timeout_s: float = 0.0      # the probe's application read timeout (0: none)
    idle_s: float = 0.0              # the probe sends nothing for this long around the fault
    sysbench: bool = True            # also runs sysbench (when the scenario has a sysbench load)

    def knob(self, key):
        return dict(self.sysctls).get(key, KERNEL_DEFAULTS.get(key))

    def kernel_sysctls(self):
        return tuple((SYSCTL_KNOBS[k][0], v) for k, v in self.sysctls)

    @property
    def namespace(self):
        """The name of the client container this cell runs in: its sysctls, spelled out."""
        return "-".join(f"{SYSCTL_ABBREVIATIONS[k]}{v}" for k, v in self.sysctls) or "default"

    @property
    def service(self):
        """The Compose service of that container (harness/lab.py ClientCell)."""
        return f"client-{self.namespace}"

    def socket_env(self):
        """SOCKOPT_* variables for libsockopts (see images/client/preload/libsockopts.c)."""
        env = {}
        if self.tcp_user_timeout_ms:
            env["SOCKOPT_TCP_USER_TIMEOUT_MS"] = str(self.tcp_user_timeout_ms)
        if self.keepalive:
            idle, interval, probes = self.keepalive
            env.update(SOCKOPT_KEEPALIVE="1", SOCKOPT_KEEPIDLE=str(idle), SOCKOPT_KEEPINTVL=str(interval),
                       SOCKOPT_KEEPCNT=str(probes))
        return env


SYSCTL_ABBREVIATIONS = {"tcp_retries2": "r", "tcp_syn_retries": "syn", "tcp_keepalive_time": "kt",
                        "tcp_keepalive_intvl": "ki", "tcp_keepalive_probes": "kp"}
CELL_KEYS = {"name", "tcp_user_timeout_ms", "keepalive", "read_timeout_s", "idle_s", "sysbench", "connections",
             *SYSCTL_KNOBS}


@dataclasses.dataclass(frozen=True)
class Sysbench:
    threads: int = 1
    tables: int = 2
    table_size: int = 1000


@dataclasses.dataclass(frozen=True)
class Wrk:
    threads: int = 1
    connections: int = 4


@dataclasses.dataclass(frozen=True)
class LoadBalancer:
    """Director settings a scenario fixes for its whole run (the lab is brought up with them)."""
    idle_timeout_s: int = 900
    conntrack_loose: int = 1        # nftables datapath: net.netfilter.nf_conntrack_tcp_loose

    def lab_env(self):
        return {"LB_IDLE_TIMEOUT": str(self.idle_timeout_s), "LB_CONNTRACK_LOOSE": str(self.conntrack_loose)}


@dataclasses.dataclass(frozen=True)
class Probe:
    proto: str = "mysql"
    interval_ms: float = 100.0


@dataclasses.dataclass(frozen=True)
class Step:
    kind: str                # "fault" | "heal" | "wait"
    name: str = ""           # fault name (fault, heal)
    params: tuple = ()       # (("target", "mysql-primary"), ...)
    seconds: float = 0.0     # wait

    def describe(self):
        if self.kind == "wait":
            return f"wait {self.seconds:g} s"
        args = " ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.kind} {self.name}" + (f" ({args})" if args else "")


@dataclasses.dataclass(frozen=True)
class Scenario:
    id: str
    description: str
    cells: tuple
    steps: tuple
    warmup_s: float
    observe_s: float
    sysbench: Sysbench = None
    probe: Probe = Probe()
    datapath: str = "auto"
    wrk: Wrk = None
    lb: LoadBalancer = LoadBalancer()


def parse_duration(value, where):
    """Seconds from 12, 1.5, '30s', '250ms' or '2m'; anything else is an error naming `where`."""
    if isinstance(value, bool):
        raise ScenarioError(f"{where}: a duration, not {value!r}")
    if isinstance(value, (int, float)):
        seconds = float(value)
    elif isinstance(value, str) and (m := re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|m)\s*", value)):
        seconds = float(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60}[m.group(2)]
    else:
        raise ScenarioError(f"{where}: not a duration: {value!r} (use seconds, '30s', '250ms' or '2m')")
    if seconds < 0:
        raise ScenarioError(f"{where}: a duration cannot be negative ({value!r})")
    return seconds


class _Reader:
    """Reads one mapping, remembering where it is, so errors can name the field."""

    def __init__(self, raw, where, allowed):
        if not isinstance(raw, dict):
            raise ScenarioError(f"{where}: must be a mapping, not {type(raw).__name__}")
        unknown = sorted(set(raw) - set(allowed), key=str)
        if unknown:
            raise ScenarioError(f"{where}.{unknown[0]}: unknown key (allowed: {', '.join(sorted(allowed))})")
        self.raw, self.where = raw, where

    def path(self, key):
        return f"{self.where}.{key}" if self.where else key

    def get(self, key, kind, default=None, required=False, minimum=None, maximum=None, choices=None):
        if key not in self.raw:
            if required:
                raise ScenarioError(f"{self.path(key)}: required")
            return default
        value = self.raw[key]
        where = self.path(key)
        if kind == "duration":
            return parse_duration(value, where)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise ScenarioError(f"{where}: must be {TYPE_NAMES[kind]}, not {value!r}")
        if choices is not None and value not in choices:
            raise ScenarioError(f"{where}: must be one of {', '.join(map(str, choices))}, not {value!r}")
        if minimum is not None and value < minimum or maximum is not None and value > maximum:
            raise ScenarioError(f"{where}: must be between {minimum} and {maximum}, not {value!r}")
        return value


def _read_cell(raw, where):
    r = _Reader(raw, where, CELL_KEYS)
    sysctls = tuple((key, r.get(key, int, minimum=lo, maximum=hi))
                    for key, (_, lo, hi) in SYSCTL_KNOBS.items() if key in raw)
    keepalive = ()
    if "keepalive" in raw:
        text = r.get("keepalive", str)
        parts = text.split("/")
        if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
            raise ScenarioError(f"{r.path('keepalive')}: IDLE/INTERVAL/PROBES in whole seconds, e.g. '5/1/3', "
                                f"not {text!r}")
        keepalive = tuple(map(int, parts))
    cell = Cell(
        name="",
        sysctls=sysctls,
        tcp_user_timeout_ms=r.get("tcp_user_timeout_ms", int, 0, minimum=0, maximum=3_600_000),
        keepalive=keepalive,
        read_timeout_s=r.get("read_timeout_s", "duration", 0.0),
        idle_s=r.get("idle_s", "duration", 0.0),
        sysbench=r.get("sysbench", bool, True),
    )
    name = r.get("name", str) or _cell_name(cell)
    if not NAME_RE.match(name):
        raise ScenarioError(f"{r.path('name')}: {name!r} must be lower-case letters, digits and '-' "
                            "(at most 31)")
    return dataclasses.replace(cell, name=name)


def _read_cells(raw, where):
    """A cell entry; with `connections: N` it stands for N connections, each a cell of its own."""
    connections = _Reader(raw, where, CELL_KEYS).get("connections", int, 1, minimum=1, maximum=32)
    cell = _read_cell({k: v for k, v in raw.items() if k != "connections"}, where)
    if connections == 1:
        return [cell]
    return [dataclasses.replace(cell, name=f"{cell.name}-c{i}") for i in range(1, connections + 1)]


def _cell_name(cell):
    name = f"r{cell.knob('tcp_retries2')}"
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
    return name


def _read_matrix(raw):
    """{knob: [values], ...} -> the cells of every combination, validated like any cell."""
    if not isinstance(raw, dict) or not raw:
        raise ScenarioError("matrix: must be a mapping of knob: [values]")
    for key, values in raw.items():
        if key not in CELL_KEYS - {"name"}:
            raise ScenarioError(f"matrix.{key}: unknown knob (knobs: {', '.join(sorted(CELL_KEYS - {'name'}))})")
        if not isinstance(values, list) or not values:
            raise ScenarioError(f"matrix.{key}: must be a non-empty list of values")
    keys = list(raw)
    cells = []
    for combination in itertools.product(*(raw[k] for k in keys)):
        label = ", ".join(f"{k}={v}" for k, v in zip(keys, combination))
        cells.append(_read_cell(dict(zip(keys, combination)), f"matrix({label})"))
    return cells


def _check_param(param: Param, value, where, cells):
    if param.kind == "duration":
        return parse_duration(value, where)
    if param.kind == "node":
        nodes = NODES + tuple(sorted({c.service for c in cells}))
        if value not in nodes:
            raise ScenarioError(f"{where}: unknown node {value!r} (nodes: {', '.join(nodes)})")
        return value
    if param.kind == "server" and value not in SERVERS:
        raise ScenarioError(f"{where}: unknown server {value!r} (servers: {', '.join(SERVERS)})")
    if param.choices and value not in param.choices:
        raise ScenarioError(f"{where}: must be one of {', '.join(param.choices)}, not {value!r}")
    if not isinstance(value, str):
        raise ScenarioError(f"{where}: must be a string, not {value!r}")
    return value


def _read_step(raw, where, cells, injected):
    if not isinstance(raw, dict) or len({"fault", "heal", "wait"} & set(raw)) != 1:
        raise ScenarioError(f"{where}: a step is one of {{fault: NAME, ...}}, {{heal: NAME}} or {{wait: DURATION}}")
    if "wait" in raw:
        r = _Reader(raw, where, {"wait"})
        return Step("wait", seconds=r.get("wait", "duration"))
    if "heal" in raw:
        r = _Reader(raw, where, {"heal"})
        name = r.get("heal", str)
        if name not in injected:
            raise ScenarioError(f"{where}.heal: no earlier fault step injects {name!r}")
        return Step("heal", name=name)
    name = raw["fault"]
    if name not in FAULTS:
        raise ScenarioError(f"{where}.fault: unknown fault {name!r} (faults: {', '.join(sorted(FAULTS))})")
    spec = FAULTS[name].params
    r = _Reader(raw, where, {"fault", *spec})
    params = []
    for key, param in spec.items():
        if key in raw:
            params.append((key, _check_param(param, raw[key], r.path(key), cells)))
        elif param.default is None:
            raise ScenarioError(f"{r.path(key)}: required by fault {name}")
        else:
            params.append((key, param.default))
    injected.add(name)
    return Step("fault", name=name, params=tuple(params))


def parse(raw, source="<scenario>", scenario_id=None):
    """A raw mapping (as loaded from YAML) -> Scenario, or ScenarioError naming `source` and the field."""
    try:
        return _parse(raw, scenario_id)
    except ScenarioError as exc:
        raise ScenarioError(f"{source}: {exc}") from None


def _parse(raw, scenario_id):
    r = _Reader(raw, "", {"description", "load", "cells", "matrix", "steps", "warmup_s", "observe_s",
                          "datapath", "lb"})
    load = _Reader(r.get("load", dict, required=True), "load", {"sysbench", "probe", "wrk"})
    wrk = None
    if "wrk" in load.raw:
        w = _Reader(load.raw["wrk"], "load.wrk", {"threads", "connections"})
        wrk = Wrk(w.get("threads", int, 1, minimum=1, maximum=8), w.get("connections", int, 4, minimum=1, maximum=256))
    lb = LoadBalancer()
    if "lb" in raw:
        b = _Reader(raw["lb"], "lb", {"idle_timeout_s", "conntrack_loose"})
        lb = LoadBalancer(int(b.get("idle_timeout_s", "duration", 900)), b.get("conntrack_loose", int, 1, choices=(0, 1)))
    sysbench = None
    if "sysbench" in load.raw:
        sb = _Reader(load.raw["sysbench"], "load.sysbench", {"threads", "tables", "table_size"})
        sysbench = Sysbench(sb.get("threads", int, 1, minimum=1, maximum=64),
                            sb.get("tables", int, 2, minimum=1, maximum=64),
                            sb.get("table_size", int, 1000, minimum=1, maximum=1_000_000))
    pr = _Reader(load.raw.get("probe", {}), "load.probe", {"proto", "interval_ms"})
    probe = Probe(pr.get("proto", str, "mysql", choices=PROTOCOLS),
                  pr.get("interval_ms", float, 100.0, minimum=10, maximum=10_000))

    raw_cells = r.get("cells", list, [])
    cells = tuple(cell for i, c in enumerate(raw_cells) for cell in _read_cells(c, f"cells[{i}]"))
    if "matrix" in raw:
        cells += tuple(_read_matrix(raw["matrix"]))
    if not cells:
        raise ScenarioError("cells: at least one cell is needed (cells: [...] or matrix: {...})")
    names = [c.name for c in cells]
    if len(set(names)) != len(names):
        duplicate = next(n for n in names if names.count(n) > 1)
        raise ScenarioError(f"cells: two cells are named {duplicate!r}; give them distinct names")

    raw_steps = r.get("steps", list, required=True)
    injected = set()
    steps = tuple(_read_step(s, f"steps[{i}]", cells, injected) for i, s in enumerate(raw_steps))
    if not any(s.kind == "fault" for s in steps):
        raise ScenarioError("steps: at least one fault step is needed")

    return Scenario(
        id=scenario_id or "adhoc",
        description=r.get("description", str, ""),
        cells=cells, steps=steps,
        warmup_s=r.get("warmup_s", "duration", 10.0),
        observe_s=r.get("observe_s", "duration", 60.0),
        sysbench=sysbench, probe=probe,
        datapath=r.get("datapath", str, "auto", choices=("auto", "ipvs", "nftables")),
        wrk=wrk, lb=lb,
    )


def _set_every_cell(key):
    def apply(raw, value):
        for cell in raw.get("cells") or []:
            if isinstance(cell, dict):
                cell[key] = value
    return apply


# Overrides a user can give from make or the environment, and how each changes the raw YAML.
OVERRIDES = {
    "TCP_RETRIES2": _set_every_cell("tcp_retries2"),
    "WARMUP_S": lambda raw, value: raw.update(warmup_s=value),
    "OBSERVE_S": lambda raw, value: raw.update(observe_s=value),
    "LB_DATAPATH": lambda raw, value: raw.update(datapath=value),
}


def scenario_path(target, directory=SCENARIO_DIR):
    """A scenario id (scenarios/<id>.yaml) or the path of a YAML file."""
    if str(target).endswith((".yaml", ".yml")):
        path = Path(target)
        if not path.exists():
            raise ScenarioError(f"{target}: no such file")
        return path
    if not NAME_RE.match(str(target)):
        raise ScenarioError(f"scenario id {target!r}: use a file name from scenarios/ without .yaml")
    path = Path(directory) / f"{target}.yaml"
    if not path.exists():
        known = ", ".join(available(directory)) or "none"
        raise ScenarioError(f"scenarios/{target}.yaml: no such scenario (known: {known})")
    return path


def _source(path):
    """How error messages name a scenario file: relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(SCENARIO_DIR.parent))
    except ValueError:
        return str(path)


def load_raw(scenario_id, overrides=None, directory=SCENARIO_DIR):
    """The YAML mapping of scenarios/<id>.yaml with overrides applied: {'TCP_RETRIES2': '5'}
    (names of OVERRIDES) or top-level keys ({'warmup_s': 5, 'cells': [...]})."""
    path = scenario_path(scenario_id, directory)
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{_source(path)}: not valid YAML: {exc}") from None
    if isinstance(raw, dict):
        for key, value in (overrides or {}).items():
            if key in OVERRIDES:
                OVERRIDES[key](raw, _number(value))
            else:
                raw[key] = value
    return raw


def load(target, overrides=None, directory=SCENARIO_DIR):
    """Load, override and validate scenarios/<id>.yaml (or a YAML file's path)."""
    path = scenario_path(target, directory)
    raw = load_raw(target, overrides, directory)
    return parse(raw, source=_source(path), scenario_id=path.stem)


def _number(value):
    if isinstance(value, str):
        for kind in (int, float):
            try:
                return kind(value)
            except ValueError:
                pass
    return value


def available(directory=SCENARIO_DIR):
    return sorted(p.stem for p in Path(directory).glob("*.yaml"))


def describe_all(directory=SCENARIO_DIR):
    """(id, first line of its description) for `make scenarios`."""
    rows = []
    for scenario_id in available(directory):
        raw = yaml.safe_load((Path(directory) / f"{scenario_id}.yaml").read_text()) or {}
        text = " ".join(str(raw.get("description", "")).split())
        first = text.split(". ")[0].rstrip(".")
        rows.append((scenario_id, first if len(first) <= 100 else first[:97] + "..."))
    return rows

