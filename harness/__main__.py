"""blackhole: command line of the lab.

  python -m harness build     build the images (Dockerfiles under images/), always on this host
  python -m harness up        build nothing, bring the lab up and wait until healthy; with KERNEL=6.12
                              (or --kernel) inside a guest booting that kernel, kept until `down`
  python -m harness down      stop and remove this project's containers and networks (and its guest)
  python -m harness clean     remove everything labelled as the lab's, from any run or crash
  python -m harness status    health of each service and the director's datapath
  python -m harness run ID    run scenarios/ID.yaml (overrides from the environment:
                              TCP_RETRIES2, WARMUP_S, OBSERVE_S, LB_DATAPATH, NAMESPACES)
  python -m harness scenarios list the scenarios, a line each
  python -m harness report [DIR]  re-render a run's summary, charts and page from its files (no
                              Docker), and results/index.html; without DIR only the index
  python -m harness baseline ID   run scenario ID and store its per-cell results in baselines/
  python -m harness check-baseline ID [--baseline FILE] [--run-dir DIR]
                              run ID again (or take DIR) and compare cell by cell; exit 1 on regression
  python -m harness explain KNOB=VALUE ...  the kernel model's prediction in plain words
  python -m harness kernel-matrix ID --kernels "host 6.1 6.12"
                              run ID on each kernel, store a baseline per kernel, write a comparison page
  python -m harness workshop [docs]  list the workshop's exercises (exercises/); docs: write
                              docs/workshop/exercises.md and answers.md (from the latest runs)
  python -m harness exercise N [--pause]  run exercise N narrated, then answer it from the run's figures;
                              --pause (PAUSE=1) waits for Enter before each fault step
  python -m harness compare [LABEL=]DIR [LABEL=]DIR ...  runs side by side on one page (no Docker)
KERNEL=host|6.1|6.12|<package version> (or --kernel) says where run, up, baseline and
check-baseline put the lab: this host, or a QEMU guest booting that Debian kernel.
"""
import argparse
import json
import os
import sys
from pathlib import Path

from . import baseline, compare_runs, kernel_matrix, report, signals
from . import scenario as scenario_module
from .director import Director
from .errors import LabError
from .faults import FAULTS
from .lab import DEFAULT_PROJECT, HOST, REPO, ComposeLab, HostEngine, clean, engine_for, environment_from_os, kept_engine
from .measure import predict
from .pipeline import run_and_report
from .report import explain, html
from .store import RunDir, results_root
from .topology import DATAPATHS
from .workshop import session as workshop


def guest_home(args):
    """Where `make up KERNEL=...` keeps its guest, for `make down` and `make status` to find."""
    return REPO / ".lab" / (args.project or DEFAULT_PROJECT) / "guest"


def make_lab(args, engine=None):
    return ComposeLab(project=args.project or DEFAULT_PROJECT, datapath=args.datapath, env=environment_from_os(),
                      engine=engine or kept_engine(guest_home(args)))


def cmd_up(args):
    engine = engine_for(args.kernel, keep_in=guest_home(args))
    lab = make_lab(args, engine)
    print(f"lab: bringing up project {lab.project} on {args.kernel} ...", flush=True)
    try:
        lab.up()
    except BaseException:
        print("lab: up failed or was interrupted; taking the lab down again", file=sys.stderr)
        lab.down()
        engine.stop()
        raise
    lab.keep()
    cmd_status(args, lab)
    if engine.docker_host:
        print(f"  guest {engine.kernel_release()}: its Docker engine is at DOCKER_HOST={engine.docker_host}; "
              "`make down` stops the guest too")


def cmd_build(args):
    print("lab: building images (cached layers are reused) ...", flush=True)
    make_lab(args, HostEngine()).build()          # always here: a guest's disk is made from these
    print("lab: images built")


def cmd_down(args):
    lab = make_lab(args)
    lab.down()
    lab.engine.stop()
    print("lab: down" + (" (and its guest stopped)" if lab.engine.where == "guest" else ""))


def cmd_clean(args):
    result = clean(everything=args.all)
    for project, names in result["removed"].items():
        print(f"lab: clean: removed {project}: {len(names)} containers/networks/volumes"
              + ("" if args.all else " (its owner is gone)"))
    for project, why in result["kept"].items():
        print(f"lab: clean: kept {project}: {why} (make clean ALL=1 removes it too)")
    for guest in result["guests"]:
        print(f"lab: clean: removed guest {guest}")
    if not any(result.values()):
        print("lab: clean: nothing to clean")


def cmd_status(args, lab=None):
    lab = lab or make_lab(args)
    for service, health in sorted(lab.health().items()):
        print(f"  {service:16} {health}")
    print(f"  director datapath: {Director(lab).datapath}; kernel {lab.kernel_release()} ({lab.engine.where})")


def cmd_scenarios(args):
    for scenario_id, description in scenario_module.describe_all():
        print(f"  {scenario_id:22} {description}")


def scenario_overrides():
    return {k: os.environ[k] for k in scenario_module.OVERRIDES if os.environ.get(k)}


def cmd_run(args):
    overrides = scenario_overrides()
    scenario, raw = scenario_module.load(args.target, overrides)
    print(f"run: {scenario.id}: {' '.join(scenario.description.split())[:160]}")
    print(f"run: {len(scenario.cells)} cell(s): " + ", ".join(c.name for c in scenario.cells)
          + (f"; overrides {overrides}" if overrides else ""))
    if scenario.kind == "failover":
        first = next(step for step in scenario.steps if step.kind == "fault")
        effect = FAULTS[first.name](None, **dict(first.params)).effect()
        windows = [predict.predict(c, effect, scenario.probe.interval_ms / 1000, 0.0) for c in scenario.cells]
        expected = [w.expected_s for w in windows if w.expected_s is not None]
        told = (f"the first error after ~{max(expected):.3g} s in the slowest cell" if expected
                else "no error in any cell")
        print(f"run: {first.name} ({effect.kind}): the kernel model expects {told}; observation limit "
              f"{scenario.observe_s:g} s after the fault")
    run_scenario(args, scenario, raw)


def run_scenario(args, scenario, raw):
    """Run it where KERNEL says (booting a guest for the run if it is not 'host'); its RunDir."""
    with engine_for(args.kernel) as engine:
        return run_and_report(scenario, raw, project=args.project, lab_env=environment_from_os(), engine=engine)


def cmd_explain(args):
    try:
        print(explain.explain(explain.parse_knobs(args.knobs)))
    except explain.ExplainError as exc:
        print(f"blackhole: explain: {exc}\nknobs:\n{explain.usage()}", file=sys.stderr)
        raise SystemExit(2)


def cmd_report(args):
    if args.target:
        run = RunDir(args.target)
        if not run.scenario_file.exists():
            raise LabError(f"{args.target}: not a run directory (it has no scenario.yaml)")
        summary = report.render(run, link_latest=False)
        print(report.terminal_table(summary))
        print(f"written: {run.path}/summary.json, summary.md, charts/, {run.page}")
    print(f"index: {html.index_page(results_root())}")


def _run_for_baseline(args):
    """The run directory to read: --run-dir, or a fresh run of the scenario."""
    if args.run_dir:
        return RunDir(args.run_dir)
    scenario, raw = scenario_module.load(args.target, scenario_overrides())
    if scenario.kind != "failover":
        raise LabError(f"{args.target}: baselines are kept for failover scenarios only")
    return run_scenario(args, scenario, raw)


def cmd_baseline(args):
    run = _run_for_baseline(args)
    summary, env = run.summary(), run.env()
    interval = run.scenario.probe.interval_ms / 1000
    path = baseline.write(baseline.from_summary(summary, env, interval),
                          args.baseline or baseline.file_for(summary["scenario"], summary["kernel"]))
    print(f"baseline: {path} ({len(summary['cells'])} cells, kernel {summary['kernel']})")


def cmd_check_baseline(args):
    path = Path(args.baseline) if args.baseline else None
    if path is not None and not path.exists():
        raise LabError(f"{path}: no such baseline file")
    if path is None and not baseline.available(args.target):
        raise LabError(f"no baseline for {args.target} in baselines/ (make baseline scenario={args.target})")
    run = _run_for_baseline(args)
    summary = run.summary()
    path = path or baseline.find(args.target, summary["kernel"])
    if path is None:
        raise LabError(f"no baseline of {args.target} for kernel {summary['kernel']} (series "
                       f"{baseline.series(summary['kernel'])}) in baselines/: make baseline scenario={args.target} "
                       f"KERNEL=...; this run is in {run.path}")
    reference = json.loads(path.read_text())
    warning = baseline.kernel_warning(reference, summary)
    if warning:
        print(warning)
    rows = baseline.compare(reference, summary)
    print(f"baseline {path} vs run {run.path}")
    print(baseline.table(rows))
    junit = run.baseline_junit
    junit.write_text(baseline.junit_xml(rows, f"baseline.{summary['scenario']}"))
    failed = [r.cell for r in rows if r.failed]
    print(f"junit: {junit}")
    if failed:
        print(f"REGRESSION in {len(failed)} cell(s): {', '.join(failed)}")
        raise SystemExit(1)
    print(f"ok: {len(rows)} cells within tolerance")


def cmd_workshop(args):
    if args.target == "docs":
        for path in workshop.write_docs():
            print(f"written: {path}")
        return
    print(workshop.listing())


def cmd_exercise(args):
    if not args.target or not args.target.isdigit():
        raise LabError("exercise needs its number: make exercise N=1 (make workshop lists them)")
    workshop.run_exercise(int(args.target), args.kernel if args.kernel != HOST else None, args.project,
                          pause=args.pause)


def cmd_compare(args):
    words = ([args.target] if args.target else []) + args.knobs
    page = compare_runs.compare(compare_runs.parse_runs(words))
    print(f"compare: {page}")
    print(f"index: {html.index_page(results_root())}")


def cmd_kernel_matrix(args):
    kernels = (args.kernels or "host 6.1 6.12").split()
    page, runs, baselines = kernel_matrix.run(args.target, kernels, args.project)
    print(f"kernel-matrix: {len(runs)} kernels; baselines: {', '.join(str(b) for b in baselines)}")
    print(f"kernel-matrix: comparison page {page}")


COMMANDS = {"build": cmd_build, "up": cmd_up, "down": cmd_down, "clean": cmd_clean, "status": cmd_status,
            "run": cmd_run, "scenarios": cmd_scenarios, "report": cmd_report, "explain": cmd_explain,
            "baseline": cmd_baseline, "check-baseline": cmd_check_baseline, "kernel-matrix": cmd_kernel_matrix,
            "workshop": cmd_workshop, "exercise": cmd_exercise, "compare": cmd_compare}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="blackhole", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=sorted(COMMANDS))
    parser.add_argument("target", nargs="?", help="scenario id (run) or run directory (report)")
    parser.add_argument("knobs", nargs="*", help="explain: KNOB=VALUE ...; compare: more run directories")
    parser.add_argument("--baseline", help="baseline file (baseline, check-baseline)")
    parser.add_argument("--run-dir", help="compare or store this run instead of running again")
    parser.add_argument("--project", default=os.environ.get("LAB_PROJECT"),
                        help=f"Compose project (up/down/status: {DEFAULT_PROJECT}; a run: one of its own)")
    parser.add_argument("--datapath", default=os.environ.get("LB_DATAPATH") or "auto", choices=DATAPATHS)
    parser.add_argument("--all", action="store_true", default=bool(os.environ.get("ALL")),
                        help="clean: every lab, also kept ones and those whose owner is running")
    parser.add_argument("--kernels", default=os.environ.get("KERNELS"), help="kernel-matrix: 'host 6.1 6.12'")
    parser.add_argument("--kernel", default=os.environ.get("KERNEL") or HOST,
                        help="host, or a Debian kernel to run the lab in a guest with: 6.1, 6.12, 6.1.0-56, ...")
    parser.add_argument("--pause", action="store_true", default=os.environ.get("PAUSE", "") not in ("", "0"),
                        help="exercise: wait for Enter before each fault step (a live demo)")
    args = parser.parse_args(argv)
    if args.command == "explain":
        args.knobs = ([args.target] if args.target else []) + args.knobs
    elif args.command in ("run", "baseline", "check-baseline", "kernel-matrix") and not args.target:
        parser.error(f"{args.command} needs a scenario id")
    signals.install()
    try:
        COMMANDS[args.command](args)
    except (LabError, scenario_module.ScenarioError, workshop.ExerciseError) as exc:
        print(f"blackhole: {exc}", file=sys.stderr)
        return 2
    except signals.Interrupted as exc:
        print(f"blackhole: interrupted by {exc.name}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("blackhole: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
