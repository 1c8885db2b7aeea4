"""explain: the model's answer in plain words, with no lab and nothing heavy imported (its own group,
so that `blackhole explain` loads neither Docker's client nor matplotlib: make explain answers in
under a second)."""
import argparse
import os
import shlex
import shutil
import sys
import textwrap
from collections.abc import Mapping
from typing import IO

from . import Commands
from .. import imports
from ..answer import explain
from ..settings import SettingsError
from . import add
from .terminal_safe import escaped


def add_commands(commands: Commands) -> None:
    command = add(commands, "explain", cmd_explain, "the model's answer in plain words, the cures ranked")
    command.add_argument("knobs", nargs="*", metavar="KNOB=VALUE")
    command.add_argument("--from-make", action="store_true", help="the knobs make was given, read from the "
                         "environment (BLACKHOLE_GIVEN names them; K holds more, split as a shell splits words)")


def to_terminal(text: str, out: IO[str] = sys.stdout) -> str:
    """The text as a terminal shows it: a paragraph (lines between blank ones, none indented) with a
    line wider than the terminal re-flowed at its words; a table's lines, indented, are left as they
    are, and so is a line no wider than the terminal. Into a pipe or a file, the text as it is."""
    text = escaped(text)
    if not out.isatty():
        return text
    width = max(60, shutil.get_terminal_size((80, 24)).columns)
    blocks = []
    for block in text.split("\n\n"):
        lines = block.split("\n")
        if any(len(line) > width for line in lines) and not any(line[:1].isspace() for line in lines):
            block = textwrap.fill(" ".join(line.strip() for line in lines), width, break_on_hyphens=False)
        else:
            block = "\n".join(line if len(line) <= width else textwrap.fill(
                line, width, subsequent_indent=" " * (len(line) - len(line.lstrip())), break_on_hyphens=False)
                for line in lines)
        blocks.append(block)
    return "\n\n".join(blocks)


def words_from_make(environ: Mapping[str, str]) -> list[str]:
    """make explain's NAME=VALUE words: K's, split as a shell would split them but by shlex (no
    shell ever reads them), then each name make was given with its value from the environment."""
    try:
        words = shlex.split(environ.get("K", ""))
    except ValueError as exc:
        raise SettingsError(f"K={environ.get('K', '')!r}: {exc}") from exc
    names = [name for name in environ.get("BLACKHOLE_GIVEN", "").split() if name not in ("K", "PYTHON")]
    return words + [f"{name}={environ.get(name, '')}" for name in names]


def cmd_explain(args: argparse.Namespace) -> None:
    try:
        given = args.knobs + (words_from_make(os.environ) if args.from_make else [])
    except SettingsError as exc:
        print(f"blackhole: explain: {exc}", file=sys.stderr)
        raise SystemExit(2)
    folders = [word.partition("=")[2] for word in given if word.startswith("FROM=")]
    words = [word for word in given if not word.startswith("FROM=")]
    try:
        incident = imports.from_dir(folders[-1]) if folders else None
        drivers = incident.drivers if incident and len(incident.drivers) > 1 else (None,)
        answers = []
        for driver in drivers:                                # one answer per application behind the VIP
            given_words = (incident.explain_words(driver) if incident else []) + words   # the command line wins
            values = explain.parse_knobs(given_words)
            answer, _, body = explain.explain(values).partition("\n")
            answers.append((driver, values, answer, body))
        for driver, _, answer, _ in answers:                  # the answers first, whatever was read
            print(to_terminal(f"{driver.source} ({driver.client}): {answer}" if driver else answer))
        if incident:
            print(to_terminal(f"\nRead from {incident.folder}:\n" + "\n".join(incident.lines())))
        for driver, values, _, body in answers:
            print(to_terminal(f"\n--- {driver.source} ({driver.client}) ---" if driver else ""), end="\n" if driver else "")
            print(to_terminal(body))
            if incident and incident.incident_times:
                print(to_terminal("\n" + explain.beside_incident(values, incident.incident_times)))
    except SettingsError as exc:
        # the knobs' list helps one who typed them; a folder's conflict is the folder's, said in one line
        print(f"blackhole: explain: {exc}" + ("" if folders else f"\nknobs:\n{explain.usage()}"), file=sys.stderr)
        raise SystemExit(2)


