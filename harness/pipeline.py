"""A scenario from start to report: the runner, then the report drawn from the run's directory,
however the run ended (an interrupted or failed run still gets its summary and page)."""
import sys

from .report.render import render
from .report.tables import terminal_table
from .run.burst import BurstRun
from .run.failover import FailoverRun
from .store import shown


def runner_for(scenario, raw_definition, **options):
    """The runner of a parsed scenario's kind ('failover' or 'burst')."""
    return (BurstRun if scenario.kind == "burst" else FailoverRun)(scenario, raw_definition, **options)


def run_and_report(scenario, raw_definition, out=sys.stdout, narrow=False, **options):
    """Run `scenario` and render its report; returns the store.RunDir. narrow: the table for an
    80-column terminal."""
    runner = runner_for(scenario, raw_definition, out=out, **options)
    finished = False
    try:
        runner.execute()
        finished = True
    finally:
        if runner.run is not None:
            _report(runner.run, out, raise_errors=finished, narrow=narrow)
    return runner.run


def _report(run, out, raise_errors, narrow=False):
    run.release_reserve("report")
    try:
        summary = render(run)
    except Exception as exc:
        if raise_errors:
            raise
        out.write(f"report: could not render {run.path}: {exc!r}\n")   # the run's own error goes on up
        return
    if summary["cells"]:
        out.write("\n" + terminal_table(summary, narrow=narrow) + "\n")
    out.write(f"\nrun: report {shown(run.page)}\n")
    out.flush()
