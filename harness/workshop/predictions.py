"""A participant's predictions for an exercise (make exercise N=2 PREDICT="r3=6 r4=7 r5=13"): for
each cell, when its client will first be told, in seconds after the fault ("never": not within the
run). Checked against the exercise's cells before anything starts, kept beside the run
(exercise.json) for the room's page. Pure."""
from collections.abc import Collection

from ..errors import InvalidInput

NEVER = "never"


def parse(text: str | None, cells: Collection[str]) -> dict[str, float | str]:
    """{cell: seconds or 'never'} from "cell=seconds ..."; cells: the exercise's cell names."""
    found: dict[str, float | str] = {}
    for word in (text or "").split():
        name, sep, value = word.partition("=")
        if not sep or not name or not value:
            raise InvalidInput(f"PREDICT: {word!r}: each prediction is cell=seconds (or cell=never)")
        if name not in cells:
            raise InvalidInput(f"PREDICT: {name!r} is no cell of this exercise (its cells: {', '.join(sorted(cells))})")
        if name in found:
            raise InvalidInput(f"PREDICT: {name} predicted twice")
        if value == NEVER:
            found[name] = NEVER
            continue
        try:
            seconds = float(value.rstrip("s"))
        except ValueError:
            seconds = -1.0
        if not 0 <= seconds <= 86_400:
            raise InvalidInput(f"PREDICT: {name}={value}: seconds after the fault (0-86400) or 'never'")
        found[name] = seconds
    return found


def shown(prediction: float | str | None) -> str:
    if prediction is None:
        return "—"
    return prediction if isinstance(prediction, str) else f"{prediction:g} s"
