"""Reading a raw YAML mapping field by field, with errors that name the field."""
import math
import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from ..errors import InvalidInput
from ..measure.sysctl_knobs import SysctlKnob

NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,30}$")
TYPE_NAMES = {dict: "a mapping", list: "a list", int: "an integer", float: "a number", str: "a string",
              bool: "true or false"}


class ScenarioError(InvalidInput):
    """Raised with a message naming the file and the field."""


MAX_DURATION_S = 86_400.0          # no duration in a scenario is longer than a day


def parse_duration(value: object, where: str, maximum: float = MAX_DURATION_S) -> float:
    """Seconds from 12, 1.5, '30s', '250ms' or '2m'; anything else is an error naming `where`."""
    if isinstance(value, bool):
        raise ScenarioError(f"{where}: a duration, not {value!r}")
    if isinstance(value, (int, float)):
        seconds = _finite(value, where)
    elif isinstance(value, str) and (m := re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|m)\s*", value)):
        seconds = _finite(m.group(1), where) * {"ms": 0.001, "s": 1, "m": 60}[m.group(2)]
    else:
        raise ScenarioError(f"{where}: not a duration: {_shown(value)} (use seconds, '30s', '250ms' or '2m')")
    if seconds < 0:
        raise ScenarioError(f"{where}: a duration cannot be negative ({value!r})")
    if seconds > maximum:
        raise ScenarioError(f"{where}: at most {maximum:g} s, not {_shown(value)}")
    return seconds


def _finite(value: str | float, where: str) -> float:
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ScenarioError(f"{where}: must be a finite number, not {_shown(value)}")
    return number


def _shown(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def checked(value: Any, kind: type, where: str, minimum: float | None = None, maximum: float | None = None,
            choices: Collection[Any] | None = None) -> Any:
    """value, when it is of kind (a float finite; never a bool for a number), one of choices and
    within minimum-maximum; else a ScenarioError naming where."""
    if kind is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        value = _finite(value, where)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ScenarioError(f"{where}: must be {TYPE_NAMES[kind]}, not {_shown(value)}")
    if choices is not None and value not in choices:
        raise ScenarioError(f"{where}: must be one of {', '.join(map(str, choices))}, not {_shown(value)}")
    number: Any = value             # a number by now, where a range is asked
    if minimum is not None and number < minimum or maximum is not None and number > maximum:
        bounds = (f"between {minimum} and {maximum}" if minimum is not None and maximum is not None
                  else f"at least {minimum}" if minimum is not None else f"at most {maximum}")
        raise ScenarioError(f"{where}: must be {bounds}, not {_shown(value)}")
    return value


class Reader:
    """Reads one mapping, remembering where it is, so errors can name the field."""

    def __init__(self, raw: object, where: str, allowed: Iterable[str]) -> None:
        if not isinstance(raw, dict):
            raise ScenarioError(f"{where or 'the scenario'}: must be a mapping, not {type(raw).__name__}")
        unknown = sorted(set(raw) - set(allowed), key=str)
        if unknown:
            raise ScenarioError(f"{self._join(where, unknown[0])}: unknown key (allowed: {', '.join(sorted(allowed))})")
        self.raw: dict[str, Any] = raw
        self.where = where

    @staticmethod
    def _join(where: str, key: object) -> str:
        return f"{where}.{key}" if where else str(key)

    def path(self, key: str) -> str:
        return self._join(self.where, key)

    def get(self, key: str, kind: Any, default: Any = None, required: bool = False, minimum: float | None = None,
            maximum: float | None = None, choices: Collection[Any] | None = None) -> Any:
        if key not in self.raw:
            if required:
                raise ScenarioError(f"{self.path(key)}: required")
            return default
        value = self.raw[key]
        where = self.path(key)
        if kind == "duration":
            return parse_duration(value, where, MAX_DURATION_S if maximum is None else maximum)
        return checked(value, kind, where, minimum, maximum, choices)

    def name(self, key: str, required: bool = False, default: str | None = None) -> Any:
        """A cell's name: lower-case letters, digits and '-'."""
        name = self.get(key, str, default, required=required)
        if name is not None and not NAME_RE.match(name):
            raise ScenarioError(f"{self.path(key)}: {name!r} must be lower-case letters, digits and '-' "
                                "(at most 31)")
        return name

    def sysctls(self, knobs: Mapping[str, SysctlKnob]) -> tuple[tuple[str, int], ...]:
        """((knob, value), ...) of the sysctl knobs this mapping sets, in the table's order."""
        return tuple((key, self.get(key, int, minimum=knob.minimum, maximum=knob.maximum))
                     for key, knob in knobs.items() if key in self.raw)
