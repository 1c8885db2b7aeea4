"""docs/reference.md, written from the code: the make targets (the Makefile's own help), every knob
(harness/settings/registry.py), the scenarios, and the members of each registry (faults, control
planes, database engines, places to run, signals, clients, connection pools), each with the first
sentence of its module's docstring. `make reference` writes it; tests/unit/test_lists.py fails when
it is stale."""
import ast
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import scenario as scenario_module
from ..control import CONTROL_PLANES
from ..databases import DATABASES
from ..faults import FAULTS
from ..lab.places import PLACES
from ..load.clients import CLIENTS
from ..pools import POOLS
from ..settings import registry
from ..signals.registry import SIGNALS

REPO = Path(__file__).resolve().parents[2]
MAKEFILE = REPO / "Makefile"
HELP_LINE = re.compile(r'^\t@echo "(.*)"$')


def make_help(makefile: Path = MAKEFILE) -> list[str]:
    """The lines `make help` prints, read from its recipe."""
    lines: list[str] = []
    inside = False
    for line in makefile.read_text().splitlines():
        if line.startswith("help:"):
            inside = True
            continue
        if inside:
            match = HELP_LINE.match(line)
            if not match:
                break
            lines.append(match.group(1).replace('\\"', '"'))
    return lines


def phony_targets(makefile: Path = MAKEFILE) -> list[str]:
    text = makefile.read_text()
    found = re.search(r"^\.PHONY:(.*)$", text, re.MULTILINE)
    return found.group(1).split() if found else []


def internal_targets(makefile: Path = MAKEFILE) -> list[str]:
    """Targets other targets depend on, which a user does not call (INTERNAL_TARGETS in the Makefile)."""
    found = re.search(r"^INTERNAL_TARGETS :=(.*)$", makefile.read_text(), re.MULTILINE)
    return found.group(1).split() if found else []


def first_sentence(text: str) -> str:
    text = " ".join((text or "").split())
    match = re.match(r"(.+?[.:;])(\s|$)", text)
    return (match.group(1) if match else text).rstrip(":;")


def module_summary(cls: type) -> str:
    """The first sentence of the docstring of the module defining cls."""
    file = sys.modules[cls.__module__].__file__
    if file is None:
        raise ValueError(f"{cls.__module__} has no file to read its docstring from")
    docstring = ast.get_docstring(ast.parse(Path(file).read_text()))
    if docstring is None:
        raise ValueError(f"{cls.__module__} says nothing of itself: the reference takes its first sentence")
    return first_sentence(docstring)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|")


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


KNOB_GROUPS = (("Scenario overrides", registry.OVERRIDES), ("Where and what runs", registry.PLACES),
               ("`make explain` only", registry.EXPLAIN), ("Arguments of one goal", registry.GOAL_ARGUMENTS),
               ("The machine", registry.MACHINE))


def members() -> list[tuple[str, list[tuple[str, str]]]]:
    """(heading, [(name, what it is)]) for each registry, in the order the reference shows them."""
    return [
        ("Places to run (`KERNEL`, `LAB`)", [(p.name, p.summary) for p in PLACES.values()]),
        ("Control planes (`control:`)", [(n, module_summary(c)) for n, c in sorted(CONTROL_PLANES.items())]),
        ("Database engines (`DB_ENGINE`)", [(n, module_summary(c)) for n, c in sorted(DATABASES.items())]),
        ("Faults (a scenario's `steps:`)", [(n, f"{module_summary(c)} Params: {', '.join(c.params) or 'none'}.")
                                            for n, c in sorted(FAULTS.items())]),
        ("Signals (what a run measures, in summary.json's `signals`)",
         [(s.name, module_summary(type(s)) + (f" · its section: “{s.section.TITLE}”" if s.section else "")
           + (f" · its chart: {s.chart}" if s.chart else "")) for s in SIGNALS.members()]),
        ("Clients (a cell's `client:`)", [(n, c.library + (f"; settings: {', '.join(c.settings)}" if c.settings else ""))
                                          for n, c in CLIENTS.items()]),
        ("Connection pools (a cell's `pool:`)", [(n, f"{module_summary(type(p))}; speaks {', '.join(p.protocols)}; "
                                                     f"settings: {', '.join(p.settings)}") for n, p in POOLS.items()]),
    ]


def reference() -> str:
    out = ["# Reference", "",
           "Written from the code by `make reference` (harness.cli.reference.py); do not edit by hand:",
           "`make test` fails when it is stale.", "", "## Make targets", "", "`make help` prints:", "", "```"]
    out += make_help() + ["```", "", "Called by other targets, not by hand: "
                          + ", ".join(f"`{t}`" for t in internal_targets()) + ".", "", "## Knobs", "",
                          "Each is checked before anything is installed, built or started; a goal refuses a knob it "
                          "does not use.", ""]
    for heading, knobs in KNOB_GROUPS:
        out += [f"### {heading}", ""]
        out += _table(("knob", "values", "used by", "what"),
                      [(f"`{k.name}`", k.describe, registry.goals_of(k), k.meaning) for k in knobs]) + [""]
    out += ["## Scenarios", "", "`scenarios/<id>.yaml`; `make scenario=<id>` runs one.", ""]
    out += _table(("id", "what it does"), [(f"`{i}`", d) for i, d in scenario_module.describe_all()]) + [""]
    for heading, rows in members():
        out += [f"## {heading}", ""] + _table(("name", "what it is"), [(f"`{n}`", s) for n, s in rows]) + [""]
    return "\n".join(out)


def main(argv: Sequence[str]) -> int:
    (REPO / "docs" / "reference.md").write_text(reference())
    print("written: docs/reference.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
