"""Scenario files: scenarios/<id>.yaml found by id, overrides from make applied, parsed by kind."""
import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

import yaml

from ..topology import RENAMED_SERVERS
from . import burst, parser
from .burst import BurstScenario
from .model import Scenario
from .reader import NAME_RE, ScenarioError, parse_duration

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "scenarios"
Override = Callable[[dict[str, Any], str, str], None]     # (the raw YAML, the override's name, its text)
PathText = str | os.PathLike[str]


class RecordedRun(Protocol):
    """What of_run reads of a run's directory (store.RunDir)."""
    @property
    def path(self) -> Path: ...

    @property
    def definition(self) -> tuple[str, Any]: ...


def parse_definition(raw: object, source: str, scenario_id: str) -> Scenario | BurstScenario:
    """A raw definition -> a BurstScenario (it has a `burst:` section) or a failover Scenario."""
    if isinstance(raw, dict) and "burst" in raw:
        return burst.parse(raw, source, scenario_id)
    return parser.parse(raw, source, scenario_id)


def _set_every_cell(key: str, kind: type) -> Override:
    """An override of one knob in every cell, those of a matrix too; refused where no cell is."""
    def apply(raw: dict[str, Any], name: str, text: str) -> None:
        value = _typed(name, text, kind)
        cells = [c for c in raw.get("cells") or [] if isinstance(c, dict)]
        matrix = raw.get("matrix") if isinstance(raw.get("matrix"), dict) else None
        if not cells and matrix is None:
            raise ScenarioError(f"{name}: this scenario has no client cells to set {key} in")
        for cell in cells:
            cell[key] = value
        if matrix is not None:
            matrix[key] = [value]
    return apply


def _set_top(key: str, kind: Any, failover_only: bool = True) -> Override:
    def apply(raw: dict[str, Any], name: str, text: str) -> None:
        if failover_only and "burst" in raw:
            raise ScenarioError(f"{name}: a burst scenario has no {key}")
        raw[key] = _typed(name, text, kind)
    return apply


def _typed(name: str, text: str, kind: Any) -> Any:
    """An override's text as the kind of value it stands for, or an error naming the override."""
    if kind == "duration":
        return parse_duration(_number(text), name, maximum=7200)
    value = _number(text)
    if kind is int and not isinstance(value, int) or kind is float and not isinstance(value, (int, float)):
        raise ScenarioError(f"{name}: must be a {'whole ' if kind is int else ''}number, not {text!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ScenarioError(f"{name}: must be a finite number, not {text!r}")
    return value


def _set_in_section(section: str, key: str, kind: type) -> Override:
    """REPLICATION=semi-sync: one key of a top-level section (replication:), the others kept."""
    def apply(raw: dict[str, Any], name: str, text: str) -> None:
        if "burst" in raw:
            raise ScenarioError(f"{name}: a burst scenario has no {section}")
        given = raw.get(section)
        raw[section] = {**(given if isinstance(given, dict) else {}), key: _typed(name, text, kind)}
    return apply


def _set_control_settings(plane: str) -> Override:
    """KEEPALIVED="delay_loop=2 retry=1": settings of the scenario's control plane, given as words;
    the parser checks each as if the scenario said it."""
    def apply(raw: dict[str, Any], name: str, text: str) -> None:
        given = raw.get("control")
        if not (isinstance(given, dict) and plane in given or given == plane):
            raise ScenarioError(f"{name}: this scenario's director is not run by {plane} (control: {plane})")
        settings = dict(given[plane] or {}) if isinstance(given, dict) else {}
        raw["control"] = {plane: {**settings, **words_as_settings(text, name)}}
    return apply


def words_as_settings(text: str, name: str) -> dict[str, Any]:
    """SETTING=VALUE words -> {setting: value} as a scenario's YAML would hold them (true/false,
    numbers, else text): the parser then checks them as its own."""
    settings = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep:
            raise ScenarioError(f"{name}: {word!r} is not SETTING=VALUE")
        settings[key] = {"true": True, "false": False}.get(value.lower(), _number(value))
    return settings


def _set_load_rate(key: str, what: str, kind: type, none: bool | None = None) -> Override:
    """CONNECT_PROBE=N / WRITER=N: that load of the scenario at N per second (0: none; `none`, when
    given, is what the section then says: the writer's `off`, or its default would run)."""
    def apply(raw: dict[str, Any], name: str, text: str) -> None:
        rate = _typed(name, text, kind)
        load = raw.setdefault("load", {}) if isinstance(raw.get("load", {}), dict) else None
        if "burst" in raw or load is None:
            raise ScenarioError(f"{name}: only a failover scenario's load can take the {what}")
        if rate == 0:
            if none is None:
                load.pop(key, None)
            else:
                load[key] = none
        else:
            load[key] = {**(load.get(key) or {}), "rate_per_s": rate}
    return apply


# Overrides a user can give from make or the environment, and how each changes the raw YAML.
OVERRIDES: dict[str, Override] = {
    "TCP_RETRIES2": _set_every_cell("tcp_retries2", int),
    "LINK_DELAY_MS": _set_every_cell("link_delay_ms", float),
    "WARMUP_S": _set_top("warmup_s", "duration"),
    "OBSERVE_S": _set_top("observe_s", "duration"),
    "LB_DATAPATH": _set_top("datapath", str, failover_only=False),
    "NAMESPACES": _set_top("namespaces", str),
    "KEEPALIVED": _set_control_settings("keepalived"),
    "HAPROXY": _set_control_settings("haproxy"),
    "CONNECT_PROBE": _set_load_rate("connect", "connect prober", int),
    "WRITER": _set_load_rate("writer", "writer", float, none=False),
    "DB_ENGINE": _set_top("database", str),
    "REPLICATION": _set_in_section("replication", "mode", str),
    "SEMI_SYNC_TIMEOUT_MS": _set_in_section("replication", "semi_sync_timeout_ms", int),
}


def of_run(run: RecordedRun) -> Scenario | BurstScenario:
    """The scenario a run ran, as its directory recorded it."""
    scenario_id, raw = run.definition
    try:
        return parse_definition(raw, "scenario.yaml", scenario_id)
    except ScenarioError as exc:
        old = [name for name in RENAMED_SERVERS if name in str(raw)]
        if old:
            raise ScenarioError(f"{run.path}: recorded when the database servers were called {' and '.join(old)} "
                                f"(now {' and '.join(RENAMED_SERVERS[n] for n in old)}); its summary.json and page "
                                "stand as written, and re-measuring it needs a checkout from before the rename "
                                f"({exc})") from None
        raise


def scenario_path(target: PathText, directory: PathText = SCENARIO_DIR) -> Path:
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


def source_name(path: PathText) -> str:
    """How error messages name a scenario file: relative to the repository when inside it."""
    try:
        return str(Path(path).resolve().relative_to(SCENARIO_DIR.parent))
    except ValueError:
        return str(path)


def load_raw(target: PathText, overrides: Mapping[str, Any] | None = None, directory: PathText = SCENARIO_DIR) -> Any:
    """The YAML mapping of scenarios/<id>.yaml with overrides applied: {'TCP_RETRIES2': '5'}
    (names of OVERRIDES) or top-level keys ({'warmup_s': 5, 'cells': [...]})."""
    path = scenario_path(target, directory)
    raw = read_yaml(path)
    for key, value in (overrides or {}).items():
        if not isinstance(raw, dict):
            break                     # parsing says what is wrong with the file itself
        if key in OVERRIDES:
            OVERRIDES[key](raw, key, value)
        else:
            raw[key] = value
    return raw


def read_yaml(path: PathText) -> Any:
    """A scenario file's YAML; not UTF-8 or not YAML is an error naming the file."""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{source_name(path)}: not UTF-8 text (byte {exc.start} is {exc.object[exc.start]:#04x})") \
            from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{source_name(path)}: not valid YAML: {exc}") from None


def load(target: PathText, overrides: Mapping[str, Any] | None = None,
         directory: PathText = SCENARIO_DIR) -> tuple[Scenario | BurstScenario, Any]:
    """(parsed scenario, raw definition) of scenarios/<id>.yaml or a YAML file's path, overrides
    applied and validated. The parsed scenario's `kind` is 'failover' or 'burst'."""
    path = scenario_path(target, directory)
    raw = load_raw(target, overrides, directory)
    return parse_definition(raw, source_name(path), path.stem), raw


def _number(value: object) -> Any:
    if isinstance(value, str):
        for kind in (int, float):
            try:
                return kind(value)
            except ValueError:
                pass
    return value


def available(directory: PathText = SCENARIO_DIR) -> list[str]:
    return sorted(p.stem for p in Path(directory).glob("*.yaml"))


def describe_all(directory: PathText = SCENARIO_DIR) -> list[tuple[str, str]]:
    """(id, first line of its description) for `make scenarios`."""
    rows = []
    for scenario_id in available(directory):
        try:
            raw = read_yaml(Path(directory) / f"{scenario_id}.yaml") or {}
        except ScenarioError as exc:
            rows.append((scenario_id, f"(unreadable: {exc})"))
            continue
        text = " ".join(str(raw.get("description", "")).split() if isinstance(raw, dict) else "")
        first = text.split(". ")[0].rstrip(".")
        rows.append((scenario_id, first if len(first) <= 100 else first[:97] + "..."))
    return rows
