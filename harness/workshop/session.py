"""make workshop / make exercise N=…: an exercise from question to answer in one terminal of
80 columns: the question and the prediction to write down, the run with a narrated live view
(optionally pausing before each fault), then where to look and the lesson in the run's figures."""
import re
import sys
import textwrap
from pathlib import Path

from ..lab import engine_for, environment_from_os
from .. import store
from ..pipeline import run_and_report
from . import answers, exercises
from .exercises import ExerciseError
from .narrated_view import narrated_view

WIDTH = 78
DOCS_DIR = Path(__file__).resolve().parents[2] / "docs" / "workshop"

__all__ = ["ExerciseError", "listing", "run_exercise", "write_docs"]


def wrapped(text, indent="  "):
    """Paragraphs re-flowed to the terminal; a line starting with 'Help:' stays a line of its own."""
    paragraphs, current = [], []
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


def listing():
    lines = ["The workshop (docs/workshop/README.md): run each with make exercise N=<number>", ""]
    for ex in exercises.all_exercises():
        where = "" if ex.kernel == "host" else f", guest {ex.kernel}"
        lines.append(f"{ex.number:3d}. {ex.title}"[:WIDTH - 14].ljust(WIDTH - 14) + f"~{ex.minutes:g} min{where}")
    lines += ["", "PAUSE=1 waits for Enter before each fault step; make compare RUNS=\"...\" puts runs side by side."]
    return "\n".join(lines)


def run_exercise(number, kernel=None, project=None, pause=False, out=sys.stdout, results=None, confirm=input):
    """Run exercise `number` (on `kernel`, else where the exercise says); its store.RunDir."""
    ex = exercises.exercise(number)
    problems = exercises.check(ex)
    if problems:
        raise ExerciseError("; ".join(problems))
    parsed, raw = ex.load_scenario()
    say = lambda text="": (out.write(text + "\n"), out.flush())          # noqa: E731
    say(f"Exercise {ex.number}: {ex.title}")
    say(f"  (~{ex.minutes:g} min; scenario {ex.scenario}{'' if ex.kernel == 'host' else ', kernel ' + ex.kernel})")
    say()
    say("The question")
    say(wrapped(ex.question))
    say()
    say("Write your prediction down first")
    say(wrapped(ex.predict))
    say()
    if pause:
        confirm("Press Enter when your prediction is written down ")
    options = {"narrow": True}
    if parsed.kind == "failover":
        options["view"] = narrated_view
        if pause:
            options["pause"] = lambda what: confirm(f">>> next: {what}. Press Enter to pull the plug ")
    with engine_for(kernel or ex.kernel, out=out) as engine:
        run = run_and_report(parsed, raw, project=project, lab_env=environment_from_os(), engine=engine,
                             out=out, results=results, **options)
    summary = run.summary()
    say()
    say("Where to look")
    say(wrapped(ex.look))
    say(f"  page: {store.shown(run.page)}")
    say()
    say("What it teaches, in your run's figures")
    say(wrapped(answers.fill(ex.teaches, summary)))
    return run


def _block(text):
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def guide_markdown():
    """docs/workshop/exercises.md: every exercise's question, prediction and where to look (no
    answers), generated from exercises/ so the two never drift apart."""
    lines = ["# Workshop exercises", "",
             "Generated from `exercises/*.yaml` by `make workshop-docs`; do not edit by hand.", ""]
    for ex in exercises.all_exercises():
        where = "" if ex.kernel == "host" else f", in a guest booting Debian's {ex.kernel} kernel"
        lines += [f"## {ex.number}. {ex.title}", "",
                  f"`{ex.command()}` (about {ex.minutes:g} min{where}; scenario `{ex.scenario}`)", "",
                  f"**The question.** {_block(ex.question)}", "",
                  f"**Write your prediction down first.** {_block(ex.predict)}", "",
                  f"**Where to look.** {_block(ex.look)}", "",
                  "**What did it teach?** Your run answers it at the end, in its own figures.", ""]
    return "\n".join(lines)


def committed_answers(text):
    """{exercise number: its measured part} of an answers.md, as answers_markdown wrote it."""
    found = {}
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        heading, _, body = part.partition("\n")
        number = re.match(r"(\d+)\. ", heading)
        measured = body.split("Usual wrong guesses:")[0].strip()
        if number and measured.startswith("Measured:"):
            found[int(number.group(1))] = measured
    return found


def answers_markdown(latest_run_of, committed=None):
    """docs/workshop/answers.md for the facilitator: each exercise's lesson filled with the figures
    of a real run (latest_run_of(exercise) -> store.RunDir or None), and the usual wrong guesses.
    An exercise with no run here keeps its committed answer (committed: {number: text}), said so."""
    committed = committed or {}
    lines = ["# Workshop answers (facilitator)", "",
             "Generated by `make workshop-docs` from `exercises/*.yaml` and the latest run of each exercise in",
             "`results/`: the figures are what this machine measured, not what the model says.", ""]
    for ex in exercises.all_exercises():
        run = latest_run_of(ex)
        lines += [f"## {ex.number}. {ex.title}", ""]
        if run is None and ex.number in committed:
            lines += [committed[ex.number], ""]
        elif run is None:
            lines += ["_No run of this exercise in results/ yet: `" + ex.command() + "`._", ""]
        else:
            summary, env = run.summary(), run.env()
            lines += [f"Measured: run `{summary['run']}` (kernel {summary.get('kernel') or env.get('kernel')}, "
                      f"datapath {summary.get('datapath') or env.get('datapath') or '—'}).", "",
                      _block(answers.fill(ex.teaches, summary)), ""]
        if ex.wrong_guesses:
            lines += ["Usual wrong guesses:", ""] + [f"- *{guess}* — {why}" for guess, why in ex.wrong_guesses] + [""]
    return "\n".join(lines)


def latest_run(ex, results=None):
    """The newest completed run in results/ that answers exercise `ex`: its scenario, every cell
    its lesson names, on the place it names (this host, or a guest of its kernel series: a run on
    another kernel does not answer it)."""
    wanted = {cell for cell, _ in answers.placeholders(ex.teaches)}
    for run in store.runs(results):
        if not run.summary_json.exists():
            continue
        summary = run.summary()
        where = (run.env().get("where") or {}).get("where", "host")
        if (summary["scenario"] == ex.scenario and (summary.get("status") or {}).get("state", "completed") == "completed"
                and wanted <= {c["cell"] for c in summary.get("cells", [])}
                and (where == "host") == (ex.kernel == "host")
                and (ex.kernel == "host" or str(summary.get("kernel", "")).startswith(f"{ex.kernel}."))):
            return run
    return None


def write_docs(directory=DOCS_DIR, results=None):
    """docs/workshop/exercises.md and answers.md; the paths written."""
    guide, sheet = Path(directory) / "exercises.md", Path(directory) / "answers.md"
    committed = committed_answers(sheet.read_text()) if sheet.exists() else {}
    runs = {ex.number: latest_run(ex, results) for ex in exercises.all_exercises()}
    for ex in exercises.all_exercises():
        if runs[ex.number] is None and ex.number in committed:
            where = "this host" if ex.kernel == "host" else f"Debian's {ex.kernel}"
            kernel = re.search(r"\(kernel (\S+),", committed[ex.number])
            other = (f"; it was measured on {kernel.group(1)}, not {where}" if ex.kernel != "host" and kernel
                     and not kernel.group(1).startswith(f"{ex.kernel}.") else "")
            print(f"workshop-docs: exercise {ex.number}: no run on {where} in results/; its committed answer is kept"
                  f"{other} ({ex.command()} measures it again)")
    guide.write_text(guide_markdown())
    sheet.write_text(answers_markdown(lambda ex: runs[ex.number], committed))
    return guide, sheet
