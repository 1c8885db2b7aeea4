"""workshop, exercise, hand-in, collect: the workshop's exercises (docs/workshop/) and its room."""
import argparse
import os

from . import Commands
from ..errors import InvalidInput
from ..lab import HOST
from ..settings import machine
from ..workshop import check, docs, room, session
from .options import add, kernel, project


def add_commands(commands: Commands) -> None:
    command = add(commands, "workshop", cmd_workshop, "list the workshop's exercises (exercises/); docs: write "
                  "the kit's pages from the runs here; check [N ...]: run every exercise (or those), each answer "
                  "beside the committed one")
    command.add_argument("target", nargs="?", choices=("docs", "check"))
    command.add_argument("numbers", nargs="*", type=int, metavar="N")
    command = add(commands, "exercise", cmd_exercise, "run exercise N narrated, then answer it from the run's "
                  "figures", project, kernel)
    command.add_argument("target", nargs="?", metavar="N")
    command.add_argument("--pause", action="store_true", default=os.environ.get("PAUSE", "") not in ("", "0"),
                         help="wait for Enter before each fault step (a live demo)")
    command.add_argument("--predict", default=os.environ.get("PREDICT", ""),
                         help="your predictions, kept with the run: \"cell=seconds cell=never ...\"")
    command.add_argument("--name", default=os.environ.get("NAME", ""), help="your name, as the room's page shows it")
    command = add(commands, "hand-in", cmd_hand_in, "copy your latest run of exercise N (every exercise you ran, "
                  "without N) into the room's folder ROOM, under NAME")
    command.add_argument("--room", default=os.environ.get("ROOM", ""))
    command.add_argument("--name", default=os.environ.get("NAME", ""))
    command.add_argument("--exercise", type=int, default=int(os.environ["N"]) if os.environ.get("N") else None)
    command = add(commands, "collect", cmd_collect, "the room's page from the runs handed in to ROOM (exercise N only, "
                  "with N)")
    command.add_argument("--room", default=os.environ.get("ROOM", ""))
    command.add_argument("--exercise", type=int, default=int(os.environ["N"]) if os.environ.get("N") else None)


def cmd_workshop(args: argparse.Namespace) -> None:
    if args.target == "docs":
        for path in docs.write_docs():
            print(f"written: {path}")
        return
    if args.target == "check":
        summary, _ = check.run_check(args.numbers or None, cache_dir=machine.cache_root())
        if any(e["verdict"] in ("FAILED", "DIFFERS") for e in summary["exercises"]):
            raise SystemExit(1)
        return
    print(session.listing())


def cmd_exercise(args: argparse.Namespace) -> None:
    if not args.target or not args.target.isdigit():
        raise InvalidInput("exercise needs its number: make exercise N=1 (make workshop lists them)")
    session.run_exercise(int(args.target), args.kernel if args.kernel != HOST else None, args.project,
                         pause=args.pause, predicted=args.predict, participant=args.name)


def cmd_hand_in(args: argparse.Namespace) -> None:
    if not args.room or not args.name:
        raise InvalidInput("hand-in needs the room's folder and your name: make hand-in ROOM=/shared/room NAME=ana [N=2]")
    room.hand_in(args.room, args.name, args.exercise)


def cmd_collect(args: argparse.Namespace) -> None:
    if not args.room:
        raise InvalidInput("collect needs the room's folder: make collect ROOM=/shared/room [N=2]")
    room.collect(args.room, args.exercise)
