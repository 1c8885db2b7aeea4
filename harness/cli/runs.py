"""run, baseline, check-baseline, kernel-matrix: a scenario run where KERNEL says, and what is
kept of it."""
import argparse
import os
import platform
from pathlib import Path
from typing import Any

from .. import compare_runs, kernel_matrix, plane_comparison
from .. import scenario as scenario_module
from ..errors import InvalidInput, LabError
from ..lab import COMPOSE, DEFAULT_GUEST_KERNEL, HOST, HostEngine, check_kernel, environment_from_os, open_place
from ..measure import baseline
from ..pipeline import run_and_report
from ..report import expectation
from ..scenario.control import needs_ipvs
from ..settings import targets
from ..store import RunDir
from . import Commands
from .options import add, kernel, project


def add_commands(commands: Commands) -> None:
    command = add(commands, "run", cmd_run, "run scenarios/ID.yaml (overrides from the environment: "
                  f"{', '.join(scenario_module.OVERRIDES)})", project, kernel)
    command.add_argument("target", metavar="ID", help="scenario id, or a scenario file")
    for name, handler, what in (("baseline", cmd_baseline, "run a scenario and store its per-cell results in "
                                 "baselines/"),
                                ("check-baseline", cmd_check_baseline, "run a scenario again (or take --run-dir) "
                                 "and compare cell by cell; exit 1 on regression")):
        command = add(commands, name, handler, what, project, kernel)
        command.add_argument("target", metavar="ID", help="scenario id")
        command.add_argument("--baseline", help="the baseline file (default: baselines/<id>-<kernel>.json)")
        command.add_argument("--run-dir", help="compare or store this run instead of running again")
    command = add(commands, "kernel-matrix", cmd_kernel_matrix, "run a scenario on each kernel, store a baseline "
                  "per kernel, write a comparison page", project)
    command.add_argument("target", metavar="ID", help="scenario id")
    command.add_argument("--kernels", default=os.environ.get("KERNELS") or "host 6.1 6.12",
                         help="'host 6.1 6.12'")
    command = add(commands, "compare-control-planes", cmd_compare_control_planes, "one failover under each control "
                  "plane (manual, keepalived, kube-proxy ipvs and nftables, haproxy, the cloud LBs emulated), one page",
                  project)
    command.add_argument("--kernel", default=os.environ.get("KERNEL") if os.environ.get("KERNEL", "host") != "host"
                         else DEFAULT_GUEST_KERNEL, help="the guest kernel of the IPVS planes")
    command.add_argument("--runs", default=os.environ.get("RUNS", ""),
                         help="'label=dir ...': compare these runs instead of running the planes' scenarios")


def scenario_overrides() -> dict[str, str]:
    return {k: os.environ[k] for k in scenario_module.OVERRIDES if os.environ.get(k)}


def cmd_run(args: argparse.Namespace) -> None:
    overrides = scenario_overrides()
    scenario, raw = scenario_module.load(args.target, overrides)
    print(f"run: {scenario.id}: {' '.join(scenario.description.split())[:160]}")
    print(f"run: {len(scenario.cells)} cell(s): " + ", ".join(c.name for c in scenario.cells)
          + (f"; overrides {overrides}" if overrides else ""))
    if isinstance(scenario, scenario_module.Scenario):
        print(f"run: {expectation.expectation(scenario)}")
    args.run = run_scenario(args, scenario, raw)


def run_scenario(args: argparse.Namespace, scenario: scenario_module.Scenario | scenario_module.BurstScenario,
                 raw: Any) -> RunDir:
    """Run it where KERNEL says (booting a guest for the run if it is not 'host'); its RunDir. A
    scenario whose control plane programs IPVS goes to a guest by itself where this host has none."""
    kernel = args.kernel
    if (kernel == HOST and isinstance(scenario, scenario_module.Scenario)
            and needs_ipvs(scenario.control, scenario.control_settings) and not HostEngine().has_ipvs()):
        print(f"run: control: {scenario.control} programs IPVS, which this host's kernel ({platform.release()}) "
              f"does not have: running it in a guest booting Debian's {DEFAULT_GUEST_KERNEL} (KERNEL= picks another)")
        kernel = DEFAULT_GUEST_KERNEL
    keep_lab = os.environ.get("KEEP_LAB") == "1"
    if keep_lab and kernel != HOST:
        print("run: KEEP_LAB=1 keeps a lab on this host only: the guest goes, and its lab with it")
    check_kernel(kernel)
    with place_for(kernel) as engine:
        return run_and_report(scenario, raw, project=args.project, lab_env=environment_from_os(), engine=engine,
                              keep_lab=keep_lab)


def place_for(kernel: str) -> Any:
    """Where a run's lab goes (lab/places.py): LAB=kubernetes, the cluster `make cluster-up` keeps
    (or the one KUBECONFIG names); otherwise Compose on this host or in a guest booting KERNEL."""
    return open_place(kernel, os.environ.get("LAB") or COMPOSE, one_lab=True)


def _run_for_baseline(args: argparse.Namespace) -> RunDir:
    """The run directory to read: --run-dir, or a fresh run of the scenario."""
    if args.run_dir:
        return RunDir(args.run_dir)
    scenario, raw = scenario_module.load(args.target, scenario_overrides())
    if scenario.kind != "failover":
        raise InvalidInput(f"{args.target}: baselines are kept for failover scenarios only")
    return run_scenario(args, scenario, raw)


def cmd_baseline(args: argparse.Namespace) -> None:
    run = args.run = _run_for_baseline(args)
    summary, env = run.summary_record(), run.env()
    ran = scenario_module.of_run(run)
    if not isinstance(ran, scenario_module.Scenario):
        raise InvalidInput(f"{run.path}: a burst run has no failover to keep as a baseline")
    interval = ran.probe.interval_ms / 1000
    path = baseline.write(baseline.from_summary(summary, env, interval),
                          args.baseline or baseline.file_for(summary.scenario, summary.kernel))
    print(f"baseline: {path} ({len(summary.cells)} cells, kernel {summary.kernel})")


def cmd_check_baseline(args: argparse.Namespace) -> None:
    path = Path(args.baseline) if args.baseline else None
    if path is not None and not path.exists():
        raise InvalidInput(f"{path}: no such baseline file")
    if path is None and not baseline.available(args.target):
        raise InvalidInput(f"no baseline for {args.target} in baselines/ (make baseline scenario={args.target})")
    run = args.run = _run_for_baseline(args)
    kernel = run.summary_record().kernel
    if path is None:
        if kernel is None:
            raise LabError(f"{run.path}: the run recorded no kernel, and baselines are kept per kernel: name one "
                           "with BASELINE=baselines/<file>.json")
        path = baseline.find(args.target, kernel)
        if path is None:
            raise LabError(f"no baseline of {args.target} for kernel {kernel} (series "
                           f"{baseline.series(kernel)}) in baselines/: make baseline scenario={args.target} "
                           f"KERNEL=...; this run is in {run.path}")
    failed, undecided = baseline.check(path, run, print)
    if failed:
        raise SystemExit(1)
    if undecided:
        raise LabError(f"check-baseline: this run could not decide {', '.join(undecided)} (it ended before their "
                       f"error could come): neither a pass nor a regression; the run is in {run.path}")


def cmd_compare_control_planes(args: argparse.Namespace) -> None:
    if args.runs:
        page = plane_comparison.render(compare_runs.parse_runs(args.runs.split()))
    else:
        page, _ = plane_comparison.run(args.project, args.kernel)
    print(f"compare-control-planes: page {page}")


def cmd_kernel_matrix(args: argparse.Namespace) -> None:
    kernels = targets.kernels(args.kernels, "KERNELS")
    for spec in kernels:
        check_kernel(spec)
    page, runs, baselines = kernel_matrix.run(args.target, kernels, args.project, scenario_overrides())
    print(f"kernel-matrix: {len(runs)} kernels; baselines: {', '.join(str(b) for b in baselines)}")
    print(f"kernel-matrix: comparison page {page}")
