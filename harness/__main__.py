"""blackhole: command line of the lab.

  python -m harness build     build the images (Dockerfiles under images/)
  python -m harness up        build nothing, bring the lab up and wait until healthy
  python -m harness down      stop and remove this project's containers and networks
  python -m harness clean     remove everything labelled as the lab's, from any run or crash
  python -m harness status    health of each service and the director's datapath
"""
import argparse
import os
import sys

from . import lab as lab_module
from .director import Director


def make_lab(args):
    return lab_module.Lab(project=args.project, datapath=args.datapath,
                          env=lab_module.environment_from_os())


def cmd_up(args):
    lab = make_lab(args)
    print(f"lab: bringing up project {lab.project} (datapath {lab.datapath}) ...", flush=True)
    try:
        lab.up()
    except BaseException:
        print("lab: up failed or was interrupted; taking the lab down again", file=sys.stderr)
        lab.down()
        raise
    cmd_status(args, lab)


def cmd_build(args):
    print("lab: building images (cached layers are reused) ...", flush=True)
    make_lab(args).build()
    print("lab: images built")


def cmd_down(args):
    make_lab(args).down()
    print("lab: down")


def cmd_clean(args):
    removed = lab_module.clean()
    counts = ", ".join(f"{len(v)} {k}" for k, v in removed.items())
    print(f"lab: clean: removed {counts}")


def cmd_status(args, lab=None):
    lab = lab or make_lab(args)
    for service, health in sorted(lab.health().items()):
        print(f"  {service:16} {health}")
    print(f"  director datapath: {Director(lab).datapath}")


COMMANDS = {"build": cmd_build, "up": cmd_up, "down": cmd_down, "clean": cmd_clean, "status": cmd_status}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="blackhole", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=sorted(COMMANDS))
    parser.add_argument("--project", default=os.environ.get("LAB_PROJECT") or lab_module.DEFAULT_PROJECT)
    parser.add_argument("--datapath", default=os.environ.get("LB_DATAPATH") or "auto",
                        choices=lab_module.DATAPATHS)
    args = parser.parse_args(argv)
    try:
        COMMANDS[args.command](args)
    except lab_module.LabError as exc:
        print(f"blackhole: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
