"""workshop, exercise: the workshop's exercises (docs/workshop/)."""
import os

from ..errors import InvalidInput
from ..lab import HOST
from ..workshop import session
from .options import add, kernel, project


def add_commands(commands):
    command = add(commands, "workshop", cmd_workshop, "list the workshop's exercises (exercises/); docs: write "
                  "docs/workshop/exercises.md and answers.md (from the latest runs)")
    command.add_argument("target", nargs="?", choices=("docs",))
    command = add(commands, "exercise", cmd_exercise, "run exercise N narrated, then answer it from the run's "
                  "figures", project, kernel)
    command.add_argument("target", nargs="?", metavar="N")
    command.add_argument("--pause", action="store_true", default=os.environ.get("PAUSE", "") not in ("", "0"),
                         help="wait for Enter before each fault step (a live demo)")


def cmd_workshop(args):
    if args.target == "docs":
        for path in session.write_docs():
            print(f"written: {path}")
        return
    print(session.listing())


def cmd_exercise(args):
    if not args.target or not args.target.isdigit():
        raise InvalidInput("exercise needs its number: make exercise N=1 (make workshop lists them)")
    session.run_exercise(int(args.target), args.kernel if args.kernel != HOST else None, args.project,
                         pause=args.pause)
