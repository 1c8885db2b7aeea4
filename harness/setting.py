"""A named value a scenario gives a fault step or a control plane: one type for both, read by one
reader (scenario/setting_reader.py), its kind, range and default said once where it is declared."""
import dataclasses

# int, float, bool, str: a YAML value of that type (a str with choices: one of them); duration: seconds,
# or '30s', '250ms', '2m'; percent: 0-100; count: a whole number >= 1; server: one of the lab's servers;
# database: a database server; node: a server, a director or a cell's client container; variants:
# named director variants of a control plane, each changing a few of its settings (choices: which).
KINDS = ("int", "float", "bool", "str", "duration", "percent", "count", "server", "database", "node", "variants")


@dataclasses.dataclass(frozen=True)
class Setting:
    kind: str
    default: object = None          # None: a fault step must give it; a control plane's: unset
    minimum: float | None = None
    maximum: float | None = None    # a variants setting's: how many variants
    choices: tuple[object, ...] = ()
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a setting's kind is one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.kind == "variants" and (self.maximum is None or not self.choices):
            raise ValueError("a variants setting says how many variants (maximum) and which settings each changes "
                             "(choices)")
