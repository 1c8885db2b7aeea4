"""plan: what a run of a scenario would do, with nothing started (no Docker, no guest)."""
import os
from pathlib import Path

from .. import plan
from .. import scenario as scenario_module
from .options import add, kernel
from .runs import scenario_overrides


def add_commands(commands):
    command = add(commands, "plan", cmd_plan, "a scenario resolved (make's overrides applied): where it runs, its "
                  "cells, steps, model, keepalived.conf and run time; nothing started. --check: validate only",
                  kernel)
    command.add_argument("target", metavar="ID", help="scenario id, or a scenario file")
    command.add_argument("--check", action="store_true", help="say nothing unless the scenario is invalid (exit 2)")


def cmd_plan(args):
    scenario, _ = scenario_module.load(args.target, scenario_overrides())
    if args.check:
        return
    for line in plan.lines(scenario, args.kernel, Path("/proc/net/ip_vs").exists(), os.environ):
        print(line)
