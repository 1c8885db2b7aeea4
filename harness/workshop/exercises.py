"""The workshop's exercises, exercises/<N>-<slug>.yaml: the question, the prediction to write
down first, the scenario that answers it (and where it runs), where to look in the result, and
what it teaches, with {cell.field} placeholders the run's own figures fill (answers.py). How long
each takes is measured, not written here (record.py)."""
import dataclasses
import re
from pathlib import Path
from typing import Any

import yaml

from .. import scenario as scenario_files
from ..errors import InvalidInput
from ..scenario import BurstScenario, Scenario, ScenarioError
from . import answers

EXERCISE_DIR = Path(__file__).resolve().parents[2] / "exercises"
FILE_RE = re.compile(r"^(\d+)-[a-z0-9-]+\.yaml$")
REQUIRED = {"title": str, "scenario": str, "question": str, "predict": str, "look": str, "teaches": str}
OPTIONAL = {"wrong_guesses": list, "kernel": str, "overrides": dict}


class ExerciseError(InvalidInput):
    pass


@dataclasses.dataclass(frozen=True)
class Exercise:
    number: int
    path: Path
    title: str
    scenario: str
    question: str
    predict: str
    look: str
    teaches: str
    wrong_guesses: tuple = ()          # (guess, why it is wrong), ...
    kernel: str = "host"
    overrides: tuple = ()              # (NAME, value) as make's overrides (TCP_RETRIES2=5, ...)

    def load_scenario(self) -> tuple[Scenario | BurstScenario, Any]:
        """(parsed scenario, raw definition) with the exercise's overrides."""
        return scenario_files.load(self.scenario, {k: str(v) for k, v in self.overrides})

    def command(self) -> str:
        return f"make exercise N={self.number}"


def _read(path: Path, number: int) -> Exercise:
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise ExerciseError(f"{path.name}: not YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise ExerciseError(f"{path.name}: a mapping of {', '.join(REQUIRED)} is expected")
    unknown = set(raw) - set(REQUIRED) - set(OPTIONAL)
    if unknown:
        raise ExerciseError(f"{path.name}: unknown field(s) {', '.join(sorted(unknown))}")
    for key, kind in {**REQUIRED, **OPTIONAL}.items():
        if key in REQUIRED and key not in raw:
            raise ExerciseError(f"{path.name}: {key} is missing")
        if key in raw and not isinstance(raw[key], kind):
            raise ExerciseError(f"{path.name}: {key} has the wrong type ({type(raw[key]).__name__})")
    guesses = []
    for item in raw.get("wrong_guesses", []):
        if not (isinstance(item, dict) and len(item) == 1):
            raise ExerciseError(f"{path.name}: wrong_guesses: each is one 'guess: why it is wrong'")
        guesses.append(next(iter(item.items())))
    fields = {k: (v.strip() if isinstance(v, str) else v) for k, v in raw.items() if k in REQUIRED}
    return Exercise(number=number, path=path, wrong_guesses=tuple(guesses), kernel=str(raw.get("kernel", "host")),
                    overrides=tuple(sorted(raw.get("overrides", {}).items())), **fields)


def all_exercises(directory: str | Path = EXERCISE_DIR) -> list[Exercise]:
    found: dict[int, Exercise] = {}
    for path in Path(directory).glob("*.yaml"):
        m = FILE_RE.match(path.name)
        if not m:
            raise ExerciseError(f"{path.name}: exercise files are named <N>-<slug>.yaml")
        number = int(m.group(1))
        if number in found:
            raise ExerciseError(f"{path.name}: exercise {number} twice ({found[number].path.name})")
        found[number] = _read(path, number)
    return [found[n] for n in sorted(found)]


def exercise(number: int, directory: str | Path = EXERCISE_DIR) -> Exercise:
    exercises = all_exercises(directory)
    chosen = next((e for e in exercises if e.number == number), None)
    if chosen is None:
        raise ExerciseError(f"no exercise {number}; there are {', '.join(str(e.number) for e in exercises)} "
                            "(make workshop lists them)")
    return chosen


def check(ex: Exercise) -> list[str]:
    """Problems of an exercise against its scenario: placeholders naming cells or fields that
    are not there. [] when it is sound."""
    try:
        parsed, _ = ex.load_scenario()
    except ScenarioError as exc:
        return [f"{ex.path.name}: scenario {ex.scenario}: {exc}"]
    cells = {c.name for c in parsed.cells}
    fields = answers.BURST_FIELDS if parsed.kind == "burst" else answers.FAILOVER_FIELDS
    problems = []
    for cell, field in answers.placeholders(ex.teaches):
        if cell not in cells:
            problems.append(f"{ex.path.name}: teaches names cell {cell!r}; {ex.scenario} has {', '.join(sorted(cells))}")
        if field not in fields:
            problems.append(f"{ex.path.name}: teaches asks for {field!r}; a {parsed.kind} cell has "
                            f"{', '.join(fields)}")
    return problems
