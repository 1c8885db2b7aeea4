"""blackhole: the lab's command line, one subcommand per job (python -m harness <command> --help).

  lab        build, up, down, clean, status          (cli/lab.py)
  cluster    cluster-up, cluster-down, cluster-status (cli/cluster.py)
  runs       run, baseline, check-baseline, kernel-matrix   (cli/runs.py)
  reports    scenarios, report, explain, compare     (cli/reports.py)
  workshop   workshop, exercise                      (cli/workshop.py)

KERNEL=host|6.1|6.12|<package version> (or --kernel) says where run, up, baseline and
check-baseline put the lab: this host, or a QEMU guest booting that Debian kernel. Each
subcommand's handler only calls the module that does the work.
"""
import argparse
import subprocess
import sys

from . import interrupts
from . import scenario as scenario_module
from .cli import cluster, lab, reports, runs, workshop
from .errors import LabError
from .workshop.exercises import ExerciseError

GROUPS = (lab, cluster, runs, reports, workshop)


def parser():
    top = argparse.ArgumentParser(prog="blackhole", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True, metavar="command")
    for group in GROUPS:
        group.add_commands(commands)
    return top


def main(argv=None):
    args = parser().parse_args(argv)
    interrupts.install()
    try:
        args.handler(args)
    except (LabError, scenario_module.ScenarioError, ExerciseError) as exc:
        print(f"blackhole: {exc}", file=sys.stderr)
        return 2
    except subprocess.TimeoutExpired as exc:       # a command in the lab that never ended (the run recorded it)
        print(f"blackhole: {exc}", file=sys.stderr)
        return 2
    except interrupts.Interrupted as exc:
        print(f"blackhole: interrupted by {exc.name}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("blackhole: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
