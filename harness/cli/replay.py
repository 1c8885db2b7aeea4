"""replay: an incident's folder replayed as one failover, the operator's cell beside the cures."""
import argparse
import os

from . import Commands
from .. import replay as replay_module
from ..lab import HOST, check_kernel
from ..replay.page import terminal
from .options import add, project
from .runs import run_scenario
from .terminal_safe import escaped


def add_commands(commands: Commands) -> None:
    command = add(commands, "replay", cmd_replay, "replay an incident's folder (sysctl.txt, driver.url, "
                  "keepalived.conf, incident.yaml): the operator's cell and the cures in one failover, ranked", project)
    command.add_argument("folder", metavar="DIR")
    command.add_argument("--kernel", default=os.environ.get("KERNEL") or None,
                         help="boot this Debian kernel instead of the series nearest the dump's")
    command.add_argument("--full", action="store_true", default=os.environ.get("FULL", "") not in ("", "0"),
                         help="watch until the operator's own cell has ended too (FULL=1), not only the cures")


def cmd_replay(args: argparse.Namespace) -> None:
    replay = replay_module.prepare(args.folder, full=args.full)
    for line in replay.lines():
        print(f"replay: {escaped(line)}")
    args.kernel = args.kernel if args.kernel and args.kernel != HOST else replay.series
    check_kernel(args.kernel)
    run = args.run = run_scenario(args, replay.scenario, replay.definition)
    ranked, page = replay_module.finish(replay, run, args.kernel)
    print(terminal(ranked))
    print(f"replay: page {page}")
