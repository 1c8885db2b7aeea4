"""The check at the edge: every knob a user gave, for the goals they asked for, validated once
before anything is installed, built or started. A name that is no knob, or a knob the goal does
not use, is an error with what was probably meant; nothing is dropped without a word."""
import dataclasses
import difflib
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from ..load.clients import CLIENTS, DEFAULT_CLIENT
from .drivers import clients_with, every_setting_name
from .kinds import SettingsError, _shown
from .registry import KNOBS, goals_of, used_by

MAKE_OWN = frozenset({"MAKEFLAGS", "MAKELEVEL", "MFLAGS", "SHELL", "MAKEOVERRIDES", "GNUMAKEFLAGS"})
# What the Makefile itself hands the harness in the environment (never a user's knob: given on
# make's command line, such a name is refused as no knob).
FROM_MAKE = frozenset({"BLACKHOLE_GIVEN", "BLACKHOLE_GOALS", "BLACKHOLE_SCENARIO_FILE"})
NEEDS_SCENARIO = ("run", "baseline", "check-baseline", "kernel-matrix")


@dataclasses.dataclass(frozen=True)
class Settings:
    """What the user asked for, validated: the goals, each knob's value, and explain's driver
    settings given by name (CLIENT=jdbc socketTimeout=3000)."""
    goals: tuple[str, ...]
    values: tuple[tuple[str, Any], ...] = ()       # ((name, value), ...)
    driver: tuple[tuple[str, str], ...] = ()       # ((name, text), ...)

    def get(self, name: str, default: Any = None) -> Any:
        return dict(self.values).get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in dict(self.values)


def default_goals(goals: Iterable[str], command_line: Collection[str]) -> tuple[str, ...]:
    """make's goals as given, or the one plain `make` runs (run with a scenario, else help)."""
    return tuple(goals) or (("run",) if "scenario" in command_line else ("help",))


def check(goals: Iterable[str], command_line: Collection[str], environ: Mapping[str, str],
          from_make: bool = True) -> Settings:
    """Settings for `goals`, from the names given on make's command line (their values are in
    environ, where make exports them) and the knobs set in the environment; SettingsError else.
    from_make: the goals are make's (a scenario comes as scenario=, not as an argument)."""
    goals = default_goals(goals, command_line)
    values: dict[str, Any] = {}
    driver: list[tuple[str, str]] = []
    for name in command_line:
        if name in MAKE_OWN:
            continue
        text = environ.get(name, "")
        knob = KNOBS.get(name)
        if knob is None:
            if "explain" in goals and clients_with(name) and environ.get("CLIENT", DEFAULT_CLIENT) in clients_with(name):
                driver.append((name, text))
                continue
            raise unknown(name, goals, client=environ.get("CLIENT") if "explain" in goals else None)
        if not any(used_by(knob, goal) for goal in goals):
            raise SettingsError(f"{name}: make {' '.join(goals)} does not use it; it is a knob of {goals_of(knob)}")
        values[name] = knob.parse(text, name)
    for name, text in environ.items():
        if name in command_line or name in MAKE_OWN:
            continue
        knob = KNOBS.get(name)
        if knob is not None and text and any(used_by(knob, goal) for goal in goals):
            values[name] = knob.parse(text, name)
        elif knob is None and misspelt_knob(name):
            raise unknown(name, goals, where="in the environment")
    missing = [goal for goal in goals if from_make and goal in NEEDS_SCENARIO and "scenario" not in values]
    if missing:
        raise SettingsError(f"make {missing[0]} needs a scenario: make {missing[0]} scenario=ID (make scenarios "
                            "lists them)")
    if from_make and "replay" in goals and "FROM" not in values:
        raise SettingsError("make replay needs an incident's folder: make replay FROM=dir/ (examples/incident-0312)")
    if from_make and "screenshots" in goals and "RUN" not in values:
        raise SettingsError("make screenshots needs a run's directory: make screenshots RUN=results/<scenario>/latest")
    if from_make and "plan" in goals and not {"scenario", "FROM"} & set(values):
        raise SettingsError("make plan needs scenario=ID|FILE or FROM=dir/")
    return Settings(goals, tuple(values.items()), tuple(driver))


def candidates(client: str | None = None) -> list[str]:
    """What a name may have meant: the knobs, and the driver settings explain takes (only the named
    client's, when one is named)."""
    if client is None:
        return sorted(KNOBS) + every_setting_name()
    return sorted(KNOBS) + sorted(CLIENTS[client].settings if client in CLIENTS else ())


def misspelt_knob(name: str) -> bool:
    """An environment name one slip away from a knob (TCP_RETRIES for TCP_RETRIES2): the environment
    holds much else, so only a name this close and sharing the knob's start counts."""
    if not name.isupper():
        return False
    return any(knob[:4] == name[:4] for knob in difflib.get_close_matches(name, list(KNOBS), n=3, cutoff=0.85))


def nearest(name: str, names: Sequence[str]) -> list[str]:
    """The names `name` was probably meant as: a knob the same but for case or with a unit more
    (TCP_USER_TIMEOUT for TCP_USER_TIMEOUT_MS), else a driver's setting so, else the close ones."""
    lower = {n.lower(): n for n in names}
    for group in ([n for n in names if n in KNOBS], names):
        same = [n for n in group if n.lower() == name.lower()]
        longer = [n for n in group if n.lower().startswith(name.lower()) and len(n) - len(name) <= 3]
        if same or longer:
            return list(dict.fromkeys(same + longer))
    return [lower[n] for n in difflib.get_close_matches(name.lower(), list(lower), n=2, cutoff=0.75)]


def unknown(name: str, goals: Sequence[str], where: str = "on the command line",
            client: str | None = None) -> SettingsError:
    """A name that is no knob, said with what was probably meant. client: explain's CLIENT (given or
    its default): only its driver's settings are suggested, and a setting of another driver says so."""
    others = clients_with(name) if "explain" in goals else []
    if others and (client or DEFAULT_CLIENT) not in others:
        named = client or f"the default client, {DEFAULT_CLIENT}"
        return SettingsError(f"{_shown(name)} is a setting of {', '.join(others)}, not of {named}: give CLIENT="
                             f"{others[0]}")
    near = [f"{n} (CLIENT={clients_with(n)[0]})" if n not in KNOBS and client is None and DEFAULT_CLIENT not in
            clients_with(n) else n for n in nearest(name, candidates(client))]
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    return SettingsError(f"{_shown(name)} ({where}): not a knob of make {' '.join(goals)}{hint} "
                         "(make help lists the knobs)")
