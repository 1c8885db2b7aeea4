"""make workshop / make exercise N=…: an exercise from question to answer in one terminal of
80 columns: the question and the prediction to write down, the run with a narrated live view
(optionally pausing before each fault), then where to look and the lesson in the run's figures."""
import json
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ..lab import engine_for, environment_from_os
from .. import store
from ..pipeline import run_and_report
from . import answers, docs, exercises, predictions, record
from .exercises import ExerciseError
from .narrated_view import narrated_view

WIDTH = 78

__all__ = ["ExerciseError", "listing", "run_exercise"]


def wrapped(text: str, indent: str = "  ") -> str:
    """Paragraphs re-flowed to the terminal; a line starting with 'Help:' stays a line of its own."""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("Help:"):
            if current:
                paragraphs.append(" ".join(current))
            current = [line.strip()] if line.strip() else []
            if line.strip():
                paragraphs.append(current.pop())
            continue
        current.append(line.strip())
    if current:
        paragraphs.append(" ".join(current))
    return "\n".join(textwrap.fill(p, WIDTH, initial_indent=indent, subsequent_indent=indent) for p in paragraphs)


def listing() -> str:
    """make workshop: each exercise in a line of the terminal, with its measured minutes."""
    measured = record.load(docs.DOCS_DIR / docs.FACILITATOR / "answers.json")
    lines = ["The workshop (docs/workshop/README.md): make exercise N=<number>", ""]
    for ex in exercises.all_exercises():
        where = "" if ex.kernel == "host" else f" guest {ex.kernel}"
        took = docs.minutes(measured.get(ex.number, {}).get("seconds"))
        lines.append(f"{ex.number:3d}. {ex.title}"[:WIDTH - 17].ljust(WIDTH - 17) + f"{took:>5}{where}")
    lines += ["", "Minutes as measured here (make workshop-check). PAUSE=1 waits for Enter",
              "before each fault; PREDICT=\"cell=s ...\" keeps your predictions with the run."]
    return "\n".join(lines)


def run_exercise(number: int, kernel: str | None = None, project: str | None = None, pause: bool = False,
                 out: IO[str] = sys.stdout, results: str | Path | None = None, confirm: Callable[[str], object] = input,
                 predicted: str = "", participant: str = "") -> store.RunDir:
    """Run exercise `number` (on `kernel`, else where the exercise says); its store.RunDir, with
    exercise.json beside its files: the exercise, how long it took from its question to its answer,
    and the participant's predictions (predicted: PREDICT's words) and name."""
    started = time.monotonic()
    ex = exercises.exercise(number)
    problems = exercises.check(ex)
    if problems:
        raise ExerciseError("; ".join(problems))
    parsed, raw = ex.load_scenario()
    guesses = predictions.parse(predicted, {c.name for c in parsed.cells})
    say = lambda text="": (out.write(text + "\n"), out.flush())          # noqa: E731
    say(f"Exercise {ex.number}: {ex.title}")
    say(f"  (scenario {ex.scenario}{'' if ex.kernel == 'host' else ', kernel ' + ex.kernel})")
    say()
    say("The question")
    say(wrapped(ex.question))
    say()
    say("Write your prediction down first")
    say(wrapped(ex.predict))
    say()
    if pause:
        confirm("Press Enter when your prediction is written down ")
    options: dict[str, Any] = {"narrow": True}
    if parsed.kind == "failover":
        options["view"] = narrated_view
        if pause:
            options["pause"] = lambda what: confirm(f">>> next: {what}. Press Enter to pull the plug ")
    with engine_for(kernel or ex.kernel, out=out) as engine:
        run = run_and_report(parsed, raw, project=project, lab_env=environment_from_os(), engine=engine,
                             out=out, results=results, **options)
    summary = run.summary_record()
    say()
    say("Where to look")
    say(wrapped(ex.look))
    say(f"  page: {store.shown(run.page)}")
    say()
    say("What it teaches, in your run's figures")
    say(wrapped(answers.fill(ex.teaches, summary)))
    if guesses:
        say()
        say("Your predictions beside your run")
        for name, guess in guesses.items():
            say(f"  {name:<20} predicted {predictions.shown(guess):<10} measured "
                f"{answers.fill('{' + name + '.detect}', summary)}"[:WIDTH])
    (run.path / "exercise.json").write_text(json.dumps(
        {"exercise": ex.number, "seconds": round(time.monotonic() - started, 1), "paused": pause, "kernel": ex.kernel,
         "participant": participant or None, "predictions": guesses}, indent=1) + "\n")
    return run
