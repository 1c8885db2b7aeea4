"""python3 -m harness.settings check [--goals "run" --given "scenario TCP_RETRIES2"]: the edge check
make runs before any goal, with the Python it makes the venv from (standard library only). Make
hands it its goals and the names of its command-line variables in the environment
(BLACKHOLE_GOALS, BLACKHOLE_GIVEN), never on a command line a shell reads; the given names'
values are read from the environment too, where make puts its command-line variables.
Exit 0 when every knob is good, 2 with one line saying what is not."""
import argparse
import os
import sys
from collections.abc import Sequence

from .edge import check
from .kinds import SettingsError


def main(argv: Sequence[str] | None = None) -> int:
    top = argparse.ArgumentParser(prog="python3 -m harness.settings")
    top.add_argument("command", choices=("check",))
    top.add_argument("--goals", default=os.environ.get("BLACKHOLE_GOALS", ""),
                     help="make's goals (empty: the default goal)")
    top.add_argument("--given", default=os.environ.get("BLACKHOLE_GIVEN", ""),
                     help="the names of make's command-line variables")
    args = top.parse_args(argv)
    try:
        check(args.goals.split(), args.given.split(), dict(os.environ))
    except SettingsError as exc:
        print(f"blackhole: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
