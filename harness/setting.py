"""A named value a scenario gives a fault step, a control plane, a client's driver or a pool: one
type for all of them, read by one reader (scenario/setting_reader.py), its kind, range, unit and
default said once where it is declared."""
import dataclasses
import re
from typing import Any

# int, float, bool, str: a YAML value of that type (a str with choices: one of them); duration: seconds,
# or '30s', '250ms', '2m'; percent: 0-100; count: a whole number >= 1; server: one of the lab's servers;
# database: a database server; node: a server, a director or a cell's client container; variants:
# named director variants of a control plane, each changing a few of its settings (choices: which);
# go_duration: a Go duration as a driver's documentation writes it ('2s', '1500ms').
KINDS = ("int", "float", "bool", "str", "duration", "percent", "count", "server", "database", "node", "variants",
         "go_duration")


@dataclasses.dataclass(frozen=True)
class Setting:
    kind: str
    default: object = None          # None: a fault step must give it; a control plane's: unset
    minimum: float | None = None
    maximum: float | None = None    # a variants setting's: how many variants
    choices: tuple[object, ...] = ()
    help: str = ""
    unit_s: float = 0.0             # an int that is a duration: seconds per unit (a driver's ms: 0.001)
    zero_is_none: bool = False      # a limit whose 0 means none at all (its documentation's "0: forever"), not 0 s
    jvm_security: bool = False      # a client's: a security property of the JVM's (its java.security), not the driver's
    picks_a_server: bool = False    # a client's: chooses among the hosts it lists (a host list's; explain has one host)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a setting's kind is one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.kind == "variants" and (self.maximum is None or not self.choices):
            raise ValueError("a variants setting says how many variants (maximum) and which settings each changes "
                             "(choices)")

    def seconds(self, value: Any) -> float | None:
        """A driver's duration setting in seconds (a Go duration, or an int counting unit_s); None
        where it sets no limit (0 that means forever)."""
        if self.kind == "go_duration":
            seconds = go_duration_s(value)
        elif self.kind == "int" and self.unit_s:
            seconds = value * self.unit_s
        else:
            raise ValueError(f"{value!r}: a {self.kind} setting is no duration")
        return None if seconds == 0 and self.zero_is_none else seconds


GO_UNITS_S = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "\u03bcs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
GO_PART = re.compile(r"(\d+\.?\d*|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)")


def go_duration_s(text: Any) -> float | None:
    """A Go duration as time.ParseDuration reads it ('2s', '1500ms', '1m30s', '0.5h', and '0',
    the one number it takes without a unit) -> seconds; None for anything else, a negative one
    included (no timeout of the lab's drivers takes it)."""
    if not isinstance(text, str):
        return None
    if text in ("0", "+0"):
        return 0.0
    body = text[1:] if text.startswith("+") else text
    parts = GO_PART.findall(body)
    if not body or "".join(number + unit for number, unit in parts) != body:
        return None
    return sum(float(number) * GO_UNITS_S[unit] for number, unit in parts)
