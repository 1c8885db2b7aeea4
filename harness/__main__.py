"""blackhole: command line of the lab.

  python -m harness build     build the images (Dockerfiles under images/)
  python -m harness up        build nothing, bring the lab up and wait until healthy
  python -m harness down      stop and remove this project's containers and networks
  python -m harness clean     remove everything labelled as the lab's, from any run or crash
  python -m harness status    health of each service and the director's datapath
  python -m harness run ID    run scenarios/ID.yaml (overrides from the environment:
                              TCP_RETRIES2, WARMUP_S, OBSERVE_S, LB_DATAPATH)
  python -m harness scenarios list the scenarios, a line each
  python -m harness report [DIR]  re-render a run's summary, charts and page from its files (no
                              Docker), and results/index.html; without DIR only the index
  python -m harness baseline ID   run scenario ID and store its per-cell results in baselines/
  python -m harness check-baseline ID [--baseline FILE] [--run-dir DIR]
                              run ID again (or take DIR) and compare cell by cell; exit 1 on regression
  python -m harness explain KNOB=VALUE ...  the kernel model's prediction in plain words
"""
import argparse
import os
import sys
from pathlib import Path

import yaml

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
        print(f"  {scenario_id:22} {description}")


def scenario_overrides():
    return {k: os.environ[k] for k in scenario_module.OVERRIDES if os.environ.get(k)}


def cmd_run(args):
    from . import catalog
    from .measure import predict
    overrides = scenario_overrides()
    kind, scenario, raw = catalog.load(args.target, overrides)
    print(f"run: {scenario.id}: {' '.join(scenario.description.split())[:160]}")
    print(f"run: {len(scenario.cells)} cell(s): " + ", ".join(c.name for c in scenario.cells)
          + (f"; overrides {overrides}" if overrides else ""))
    if kind == "failover":
        slowest = max(predict.outstanding_data(c).expected_s for c in scenario.cells)
        print(f"run: a blackholed connection with a request outstanding errors out after ~{slowest:.0f} s in "
              f"the slowest cell (kernel model); observation limit {scenario.observe_s:g} s after the fault")
    catalog.runner(kind, scenario, raw, project=args.project, lab_env=lab_module.environment_from_os()).execute()


def cmd_explain(args):
    from .report import explain
    try:
        print(explain.explain(explain.parse_knobs(args.knobs)))
    except explain.ExplainError as exc:
        print(f"blackhole: explain: {exc}\nknobs:\n{explain.usage()}", file=sys.stderr)
        raise SystemExit(2)


def cmd_report(args):
    from .report import html as html_report
    from .store import RESULTS
    if args.target and _is_burst_run(args.target):
        from .burst import run as burst_run, spec as burst_spec
        raw = yaml.safe_load((Path(args.target) / "scenario.yaml").read_text())
        parsed = burst_spec.parse(raw["definition"], "scenario.yaml", raw["id"])
        print(burst_run.terminal_table(burst_run.write(Path(args.target).resolve(), parsed)))
    elif args.target:
        summary = summary_module.write(args.target)
        print(summary_module.terminal_table(summary))
        page = html_report.render_run(args.target, summary)
        print(f"written: {args.target}/summary.json, summary.md, charts/, {page}")
    print(f"index: {html_report.index_page(RESULTS)}")


def _is_burst_run(run_dir):
    path = Path(run_dir) / "scenario.yaml"
    return path.exists() and "burst" in (yaml.safe_load(path.read_text()).get("definition") or {})


def _run_for_baseline(args):
    """The run directory to read: --run-dir, or a fresh run of the scenario."""
    if args.run_dir:
        return args.run_dir
    from . import catalog
    kind, scenario, raw = catalog.load(args.target, scenario_overrides())
    if kind != "failover":
        raise lab_module.LabError(f"{args.target}: baselines are kept for failover scenarios only")
    return catalog.runner(kind, scenario, raw, project=args.project,
                          lab_env=lab_module.environment_from_os()).execute()


def cmd_baseline(args):
    import json
    from . import baseline
    run_dir = Path(_run_for_baseline(args))
    summary = json.loads((run_dir / "summary.json").read_text())
    env = json.loads((run_dir / "env.json").read_text())
    interval = summary_module.load_run_scenario(run_dir).probe.interval_ms / 1000
    path = baseline.write(baseline.from_summary(summary, env, interval),
                          args.baseline or baseline.file_for(summary["scenario"], summary["kernel"]))
    print(f"baseline: {path} ({len(summary['cells'])} cells, kernel {summary['kernel']})")


def cmd_check_baseline(args):
    import json
    from . import baseline
    path = Path(args.baseline) if args.baseline else baseline.find(args.target)
    if path is None or not path.exists():
        raise lab_module.LabError(f"no baseline for {args.target} in baselines/ (make baseline scenario={args.target})")
    reference = json.loads(path.read_text())
    run_dir = Path(_run_for_baseline(args))
    summary = json.loads((run_dir / "summary.json").read_text())
    warning = baseline.kernel_warning(reference, summary)
    if warning:
        print(warning)
    rows = baseline.compare(reference, summary)
    print(f"baseline {path} vs run {run_dir}")
    print(baseline.table(rows))
    junit = run_dir / "baseline-check.xml"
    junit.write_text(baseline.junit_xml(rows, f"baseline.{summary['scenario']}"))
    failed = [r.cell for r in rows if r.failed]
    print(f"junit: {junit}")
    if failed:
        print(f"REGRESSION in {len(failed)} cell(s): {', '.join(failed)}")
        raise SystemExit(1)
    print(f"ok: {len(rows)} cells within tolerance")


COMMANDS = {"build": cmd_build, "up": cmd_up, "down": cmd_down, "clean": cmd_clean, "status": cmd_status,
            "run": cmd_run, "scenarios": cmd_scenarios, "report": cmd_report, "explain": cmd_explain,
            "baseline": cmd_baseline, "check-baseline": cmd_check_baseline}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="blackhole", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=sorted(COMMANDS))
    parser.add_argument("target", nargs="?", help="scenario id (run) or run directory (report)")
    parser.add_argument("knobs", nargs="*", help="explain: KNOB=VALUE ...")
    parser.add_argument("--baseline", help="baseline file (baseline, check-baseline)")
    parser.add_argument("--run-dir", help="compare or store this run instead of running again")
    parser.add_argument("--project", default=os.environ.get("LAB_PROJECT") or lab_module.DEFAULT_PROJECT)
    parser.add_argument("--datapath", default=os.environ.get("LB_DATAPATH") or "auto",
                        choices=lab_module.DATAPATHS)
    args = parser.parse_args(argv)
    if args.command == "explain":
        args.knobs = ([args.target] if args.target else []) + args.knobs
    elif args.command in ("run", "baseline", "check-baseline") and not args.target:
        parser.error(f"{args.command} needs a scenario id")
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
