"""A room's runs in one place without anyone copying by hand: each participant hands in the latest
run of an exercise (make hand-in ROOM=<folder> NAME=<name> N=2) into a folder every laptop
reaches (a share, an sshfs mount of the facilitator's machine), and the facilitator collects them
into one page per exercise (make collect ROOM=<folder>): every participant's run side by side,
their predictions beside the measured figures. A hand-in lands whole or not at all (copied aside,
then renamed into place), so twenty laptops may hand in at once."""
import html
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from .. import compare_runs, store
from ..errors import InvalidInput
from ..report.html import page, table
from . import docs, exercises

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")


def room_dir(text: str | Path) -> Path:
    room = Path(text).expanduser()
    if not room.is_dir():
        raise InvalidInput(f"ROOM={text}: no such folder (make one the whole room can write to: a share, "
                           "or the facilitator's folder mounted over sshfs)")
    if not os.access(room, os.W_OK | os.X_OK):
        raise InvalidInput(f"ROOM={text}: this user cannot write there")
    return room


def hand_in(room: str | Path, name: str, number: int | None = None, results: str | Path | None = None,
            say: Callable[[str], object] = print) -> list[Path]:
    """Copy the participant's latest run of exercise `number` (every exercise they ran, if None)
    into room/<name>/; returns the paths handed in."""
    room = room_dir(room)
    if not NAME_RE.match(name or ""):
        raise InvalidInput(f"NAME={name!r}: a name of letters, digits, - and _ (at most 32), as the room page shows it")
    chosen = [exercises.exercise(number)] if number else exercises.all_exercises()
    handed = []
    for ex in chosen:
        run = docs.latest_run(ex, results)
        if run is None:
            if number:
                raise InvalidInput(f"no run of exercise {ex.number} in {store.shown(store.results_root())}: "
                                   f"make exercise N={ex.number} first")
            continue
        target = room / name / ex.scenario / run.name
        if not target.exists():
            incoming = target.parent / f".incoming-{run.name}-{os.getpid()}"
            incoming.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(run.path, incoming, symlinks=True, ignore=shutil.ignore_patterns(".reserve-*", "lab"))
            os.rename(incoming, target)
        say(f"hand-in: exercise {ex.number} ({run.name}) -> {target}")
        handed.append(target)
    if not handed:
        raise InvalidInput(f"no run of any exercise in {store.shown(store.results_root())} to hand in")
    return handed


def handed_in(room: str | Path) -> dict[int, list[tuple[str, store.RunDir]]]:
    """{exercise number: [(participant, RunDir of their newest run of it)]} in the room."""
    by_scenario: dict[str, list[exercises.Exercise]] = {}
    for ex in exercises.all_exercises():
        by_scenario.setdefault(ex.scenario, []).append(ex)
    found: dict[int, list[tuple[str, store.RunDir]]] = {}
    for person in sorted(p for p in Path(room).iterdir() if p.is_dir() and NAME_RE.match(p.name)):
        for scenario_dir in sorted(p for p in person.iterdir() if p.is_dir()):
            runs = sorted((r for r in scenario_dir.iterdir() if (r / "summary.json").exists()
                           and not r.name.startswith(".")), key=lambda r: r.name)
            for ex in by_scenario.get(scenario_dir.name, ()):
                if runs:
                    found.setdefault(ex.number, []).append((person.name, store.RunDir(runs[-1])))
    return found


def collect(room: str | Path, number: int | None = None, out_dir: str | Path | None = None,
            say: Callable[[str], object] = print) -> Path:
    """The room's page: one comparison per exercise handed in by two or more, each participant's
    predictions beside their figures; returns its index.html."""
    room = room_dir(room)
    found = handed_in(room)
    if number:
        found = {number: found.get(number, [])}
    directory = Path(out_dir or store.new_comparison_dir("room", room.name or "room"))
    rows = []
    for n, runs in sorted(found.items()):
        ex = exercises.exercise(n)
        names = html.escape(", ".join(person for person, _ in runs) or "nobody yet")
        if len(runs) < 2:
            only = runs[0][1].page if runs else None
            rows.append([str(n), html.escape(ex.title), str(len(runs)), names,
                         f"<a href='{html.escape(os.path.relpath(only, directory))}'>their run</a> (two make a page)" if only
                         else "two hand-ins make a page"])
            continue
        compared = compare_runs.compare(runs, out_dir=directory / f"exercise-{n}",
                                        title=f"Exercise {n}: {ex.title} ({len(runs)} participants)")
        link = os.path.relpath(compared, directory)
        rows.append([str(n), html.escape(ex.title), str(len(runs)), names, f"<a href='{html.escape(link)}'>the room's runs</a>"])
        say(f"collect: exercise {n}: {len(runs)} participants -> {compared}")
    counted = "no exercise" if not found else "1 exercise" if len(found) == 1 else f"{len(found)} exercises"
    body = (f"<h1>The room: {counted} handed in</h1><p>From {html.escape(os.path.relpath(room, directory))}/; each page puts every "
            "participant's run of the exercise side by side, with their predictions beside the measured figures.</p>"
            + table(["#", "exercise", "hand-ins", "participants", "page"], rows))
    (directory / "index.html").write_text(page("The room", body))
    say(f"collect: the room's page {store.shown(directory / 'index.html')}")
    return directory / "index.html"
