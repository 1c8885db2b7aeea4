"""The one reader of a scenario's settings (harness/setting.py): a fault step's params and a
control plane's settings alike, each value checked against its kind and range, the error naming
where it is."""
from collections.abc import Collection
from typing import Any

from .. import topology
from ..setting import Setting, go_duration_s
from .reader import MAX_DURATION_S, ScenarioError, checked, parse_duration

PYTHON_TYPES = {"int": int, "float": float, "bool": bool, "str": str}


def read_setting(setting: Setting, value: object, where: str, nodes: Collection[str] = ()) -> Any:
    """The value, as the setting's kind reads it. nodes: the clients' containers a `node` may name
    besides the lab's own nodes. A variants setting is read by its control plane's reader
    (scenario/control.py), which knows the settings each variant may change."""
    kind = setting.kind
    if kind == "duration":
        seconds = parse_duration(value, where, MAX_DURATION_S if setting.maximum is None else setting.maximum)
        if setting.minimum is not None and seconds < setting.minimum:
            raise ScenarioError(f"{where}: at least {setting.minimum:g} s, not {value!r}")
        return seconds
    if kind == "percent":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
            raise ScenarioError(f"{where}: a share between 0 and 100 (%), not {value!r}")
        return float(value)
    if kind == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ScenarioError(f"{where}: must be a whole number of at least 1, not {value!r}")
        return value
    if kind == "node":
        known = topology.NODES + tuple(sorted(nodes))
        if value not in known:
            raise ScenarioError(f"{where}: {topology.unknown_server(value, known, 'node')}")
        return value
    if kind == "server" and value not in topology.SERVERS:
        raise ScenarioError(f"{where}: {topology.unknown_server(value)}")
    databases = topology.SERVICE_SERVERS["mysql"]
    if kind == "database" and value not in databases:
        raise ScenarioError(f"{where}: {value} is not a database (one of {', '.join(databases)})")
    if kind == "go_duration":
        text = checked(value, str, where)
        if go_duration_s(text) is None:
            raise ScenarioError(f"{where}: a duration like '2s' or '1500ms', not {value!r}")
        return text
    if kind == "variants":
        raise TypeError(f"{where}: a variants setting is read by its control plane's reader (scenario/control.py)")
    return checked(value, PYTHON_TYPES.get(kind, str), where, setting.minimum, setting.maximum,
                   setting.choices or None)
