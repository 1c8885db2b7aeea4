"""`make kernel-matrix scenario=ID KERNELS="host 6.1 6.12"`: the scenario run on each kernel (one
guest boot each), a baseline stored per kernel, and one page comparing them cell by cell."""
import sys

from . import scenario, store
from .measure import baseline
from .lab import engine_for, environment_from_os
from .measure import comparison
from .pipeline import run_and_report
from .report import comparison_page


def run(scenario_id, kernels, project, out=sys.stdout):
    """Returns (the comparison page, {kernel spec: RunDir}, [baseline files])."""
    parsed, raw = scenario.load(scenario_id, None)
    if parsed.kind != "failover":
        raise scenario.ScenarioError(f"{scenario_id}: a kernel matrix compares failover scenarios only")
    runs, baselines = {}, []
    for spec in kernels:
        out.write(f"kernel-matrix: {scenario_id} on {spec} ...\n")
        out.flush()
        with engine_for(spec, out=out, one_lab=True) as engine:
            runs[spec] = run_and_report(parsed, raw, project=project, lab_env=environment_from_os(), engine=engine,
                                        out=out)
        summary, env = runs[spec].summary(), runs[spec].env()
        path = baseline.file_for(scenario_id, summary["kernel"])
        baseline.write(baseline.from_summary(summary, env, parsed.probe.interval_ms / 1000), path)
        baselines.append(path)
        out.write(f"kernel-matrix: {spec}: baseline {path}\n")
    entries = [(f"{spec} ({r.summary()['kernel']})" if spec != "host" else f"host ({r.summary()['kernel']})",
                r.summary(), r.env()) for spec, r in runs.items()]
    result = comparison.compare(entries, parsed.probe.interval_ms / 1000)
    directory = store.new_comparison_dir("kernel-matrix", scenario_id)
    page = comparison_page.render(directory, result, f"{scenario_id} across kernels: {', '.join(kernels)}")
    return page, runs, baselines
