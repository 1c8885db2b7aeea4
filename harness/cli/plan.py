"""plan: what a run of a scenario would do, with nothing started (no Docker, no guest)."""
import argparse
import os
from pathlib import Path

from . import Commands
from .. import imports, plan
from ..errors import InvalidInput
from ..answer import words
from ..replay import build
from .. import scenario as scenario_module
from .options import add, kernel
from .terminal_safe import escaped
from .runs import scenario_overrides


def add_commands(commands: Commands) -> None:
    command = add(commands, "plan", cmd_plan, "a scenario resolved (make's overrides applied): where it runs, its "
                  "cells, steps, model, keepalived.conf and run time; nothing started. --check: validate only",
                  kernel)
    command.add_argument("target", metavar="ID", nargs="?", help="scenario id, or a scenario file")
    command.add_argument("--from", dest="folder", default=os.environ.get("FROM"),
                         help="an incident's folder: plan its replay (make replay FROM=...)")
    command.add_argument("--check", action="store_true", help="say nothing unless the scenario is invalid (exit 2)")


def cmd_plan(args: argparse.Namespace) -> None:
    kernel = args.kernel
    if args.target:
        scenario, _ = scenario_module.load(args.target, scenario_overrides())
    elif args.folder:
        planned = build.plan(imports.from_dir(args.folder), full=os.environ.get("FULL", "") not in ("", "0"))
        scenario = scenario_module.parse_definition(planned.definition, f"the replay of {args.folder}", "replay")
        kernel = kernel if kernel != "host" else planned.series
        print("\n".join(f"replay: {escaped(line)}" for line in planned.lines))
        print("\n".join(words.ranking_lines(planned.ranking)))
    else:
        raise InvalidInput("plan: a scenario id or file, or --from an incident's folder")
    if args.check:
        return
    for line in plan.lines(scenario, kernel, Path("/proc/net/ip_vs").exists(), os.environ):
        print(line)
