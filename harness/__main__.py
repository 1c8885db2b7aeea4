"""blackhole: the lab's command line, one subcommand per job (python -m harness <command> --help).

  lab        build, up, down, clean, status          (cli/lab.py)
  cluster    cluster-up, cluster-down, cluster-status (cli/cluster.py)
  runs       run, baseline, check-baseline, kernel-matrix   (cli/runs.py)
  plan       plan: a run resolved, nothing started       (cli/plan.py)
  replay     replay: an incident's folder as a failover  (cli/replay.py)
  reports    scenarios, report, explain, compare     (cli/reports.py)
  workshop   workshop, exercise                      (cli/workshop.py)

KERNEL=host|6.1|6.12|<package version> (or --kernel) says where run, up, baseline and
check-baseline put the lab: this host, or a QEMU guest booting that Debian kernel. Each
subcommand's handler only calls the module that does the work.

Exit codes, kept by .venv/bin/blackhole (make turns every failure into 2):
  0  done;  1  check-baseline found a regression;  2  the input is invalid, nothing was started;
  3  the lab failed (the run directory, if one was made, says why);  4  the lab's own defect (a
  bug: its traceback on stderr);  130/143  interrupted.
"""
import argparse
import importlib
import json
import os
import subprocess
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from . import interrupts
from .errors import InvalidInput, LabError
from .settings import check
from .cli.terminal_safe import escaped

INVALID, LAB_FAILED, LAB_DEFECT = 2, 3, 4

GROUPS = ("lab", "cluster", "runs", "plan", "replay", "reports", "explain", "workshop")
# Commands whose group alone is loaded when they are the one asked for (explain imports no Docker
# client and no plotting library: it answers in well under a second).
ALONE = {"explain": "explain"}


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; with `command` one of ALONE's, only its group (the others stay unimported)."""
    top = argparse.ArgumentParser(prog="blackhole", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--version", action="version", version=f"blackhole-lab {version()}")
    top.add_argument("--json", action="store_true", help="the progress on stderr; on stdout one JSON object: the "
                     "exit code, the error, and the run's directory and summary where there is one")
    commands = top.add_subparsers(dest="command", required=True, metavar="command")
    for group in ((ALONE[command],) if command in ALONE else GROUPS):
        importlib.import_module(f".cli.{group}", __package__).add_commands(commands)
    return top


def command_of(argv: Sequence[str]) -> str | None:
    """The subcommand named in argv (its first word that is not an option), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def version() -> str:
    """The commit this clone is at (and whether it was changed), or 'unknown' outside a git clone."""
    repo = Path(__file__).resolve().parents[1]
    try:
        return subprocess.run(["git", "-C", str(repo), "describe", "--always", "--dirty"], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser(command_of(argv)).parse_args(argv)
    if not args.json:
        return run_command(args)
    saved = os.dup(1)                 # the progress, and what the lab's programs print, go to stderr
    os.dup2(2, 1)
    try:
        code = run_command(args)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
    run = getattr(args, "run", None)
    print(json.dumps({"command": args.command, "exit_code": code, "error": getattr(args, "error", None),
                      "run_dir": str(run.path) if run else None,
                      "summary": run.summary() if run and run.summary_json.exists() else None}))
    return code


def run_command(args: argparse.Namespace) -> int:
    """The subcommand's exit code: 0, 1 (check-baseline: a regression), 2 (invalid input), 3 (the
    lab failed), 130/143 (interrupted). The error said goes into args.error too."""
    try:
        check((args.command,), (), dict(os.environ), from_make=False)  # the environment's knobs, as make's check
        interrupts.install()
        args.handler(args)
    except InvalidInput as exc:
        return said(args, exc, INVALID)
    except (LabError, subprocess.TimeoutExpired) as exc:   # a command in the lab that never ended: the run recorded it
        return said(args, exc, LAB_FAILED)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else said(args, exc.code, INVALID)
    except BrokenPipeError:                    # its reader went away (| head): nothing more to say
        sys.stderr.close()
        return 0
    except interrupts.Interrupted as exc:
        return said(args, f"interrupted by {exc.name}", exc.exit_code)
    except KeyboardInterrupt:
        return said(args, "interrupted", 130)
    except Exception as exc:                  # noqa: BLE001 - anything else is the lab's own bug: said as one
        traceback.print_exc()
        return said(args, f"the lab's own defect, not your input: {type(exc).__name__}: {exc} (its traceback is "
                          "above; please report it)", LAB_DEFECT)
    return 0


def said(args: argparse.Namespace, error: object, code: int) -> int:
    args.error = escaped(error)
    print(f"blackhole: {args.error}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
