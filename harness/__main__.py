"""blackhole: command line of the lab.

  python -m harness build     build the images (Dockerfiles under images/)
  python -m harness up        build nothing, bring the lab up and wait until healthy
  python -m harness down      stop and remove this project's containers and networks
  python -m harness clean     remove everything labelled as the lab's, from any run or crash
  python -m harness status    health of each service and the director's datapath
  python -m harness run ID    run scenarios/ID.yaml (overrides from the environment:
                              TCP_RETRIES2, WARMUP_S, OBSERVE_S, LB_DATAPATH)
  python -m harness scenarios list the scenarios, a line each
  python -m harness report DIR  re-render a run's summary from its files (no Docker)
  python -m harness explain KNOB=VALUE ...  the kernel model's prediction in plain words
"""
import argparse
import os
import sys

from . import lab as lab_module
from . import scenario as scenario_module
from .director import Director
from .report import summary as summary_module


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


def cmd_scenarios(args):
    for scenario_id, description in scenario_module.describe_all():
        print(f"  {scenario_id:18} {description}")


def scenario_overrides():
    return {k: os.environ[k] for k in scenario_module.OVERRIDES if os.environ.get(k)}


def cmd_run(args):
    from .measure import kernel_model
    from .runner import Run
    overrides = scenario_overrides()
    scenario = scenario_module.load(args.target, overrides)
    raw = scenario_module.load_raw(args.target, overrides)
    slowest = max(kernel_model.blackhole(c.knob("tcp_retries2")).detect_s for c in scenario.cells)
    print(f"run: {scenario.id}: {scenario.description.strip().splitlines()[0] if scenario.description else ''}")
    print(f"run: {len(scenario.cells)} cell(s): " + ", ".join(c.name for c in scenario.cells)
          + (f"; overrides {overrides}" if overrides else ""))
    print(f"run: a blackholed connection in the slowest cell errors out after ~{slowest:.0f} s "
          f"(kernel model); observation limit {scenario.observe_s:g} s after the fault")
    Run(scenario, raw, project=args.project, lab_env=lab_module.environment_from_os()).execute()


def cmd_explain(args):
    from .report import explain
    try:
        print(explain.explain(explain.parse_knobs(args.knobs)))
    except explain.ExplainError as exc:
        print(f"blackhole: explain: {exc}\nknobs:\n{explain.usage()}", file=sys.stderr)
        raise SystemExit(2)


def cmd_report(args):
    summary = summary_module.write(args.target)
    print(summary_module.terminal_table(summary))
    print(f"written: {args.target}/summary.json, summary.md")


COMMANDS = {"build": cmd_build, "up": cmd_up, "down": cmd_down, "clean": cmd_clean, "status": cmd_status,
            "run": cmd_run, "scenarios": cmd_scenarios, "report": cmd_report, "explain": cmd_explain}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="blackhole", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=sorted(COMMANDS))
    parser.add_argument("target", nargs="?", help="scenario id (run) or run directory (report)")
    parser.add_argument("knobs", nargs="*", help="explain: KNOB=VALUE ...")
    parser.add_argument("--project", default=os.environ.get("LAB_PROJECT") or lab_module.DEFAULT_PROJECT)
    parser.add_argument("--datapath", default=os.environ.get("LB_DATAPATH") or "auto",
                        choices=lab_module.DATAPATHS)
    args = parser.parse_args(argv)
    if args.command == "explain":
        args.knobs = ([args.target] if args.target else []) + args.knobs
    elif args.command in ("run", "report") and not args.target:
        parser.error(f"{args.command} needs a {'scenario id' if args.command == 'run' else 'run directory'}")
    try:
        COMMANDS[args.command](args)
    except (lab_module.LabError, scenario_module.ScenarioError) as exc:
        print(f"blackhole: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("blackhole: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
