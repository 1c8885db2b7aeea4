"""A scenario from start to report: the runner, then the report drawn from the run's directory,
however the run ended (an interrupted or failed run still gets its summary and page). A failover
run draws it in its cleanup, as soon as its timeline is merged, while its lab is taken down."""
import sys
import threading
from typing import IO, Any

from .measure.summary_record import RunSummary
from .report.render import render
from .report.tables import terminal_table
from .run.burst import BurstRun
from .run.failover import REPORT_LIMIT_S, FailoverRun
from .scenario import BurstScenario, Scenario
from .store import RunDir, shown


def runner_for(scenario: Scenario | BurstScenario, raw_definition: Any, **options: Any) -> FailoverRun | BurstRun:
    """The runner of a parsed scenario's kind ('failover' or 'burst')."""
    if isinstance(scenario, BurstScenario):
        return BurstRun(scenario, raw_definition, **options)
    return FailoverRun(scenario, raw_definition, **options)


REPORT_WAIT_S = 60.0          # after the cleanup: how much longer a report past its step's limit is waited for


class ReportInCleanup:
    """The report drawn by the run's cleanup once the timeline is merged (FailoverRun's report=):
    its summary, or the error that stopped it, for the pipeline to show or raise afterwards."""

    def __init__(self) -> None:
        self.started, self.done = False, threading.Event()
        self.summary: RunSummary | None = None
        self.error: BaseException | None = None

    def __call__(self, run: RunDir) -> None:
        self.started = True
        try:
            run.release_reserve("report")
            self.summary = render(run)
        except Exception as exc:             # shown or raised by the pipeline, not the cleanup's
            self.error = exc
        finally:
            self.done.set()

    def outcome(self) -> tuple[RunSummary | None, BaseException | None] | None:
        """(summary, error) once drawn; None if the cleanup never drew it (its step never ran)."""
        if not self.started:
            return None
        if not self.done.wait(REPORT_WAIT_S):     # a step past its limit is left running in its thread
            return None, TimeoutError(f"the report was not drawn within {REPORT_LIMIT_S + REPORT_WAIT_S:g} s")
        return self.summary, self.error


def run_and_report(scenario: Scenario | BurstScenario, raw_definition: Any, out: IO[str] = sys.stdout,
                   narrow: bool = False, **options: Any) -> RunDir:
    """Run `scenario` and render its report; returns its directory. narrow: the table for an
    80-column terminal."""
    in_cleanup = ReportInCleanup() if scenario.kind != "burst" else None
    runner = runner_for(scenario, raw_definition, out=out, **options,
                        **({"report": in_cleanup} if in_cleanup else {}))
    finished = False
    try:
        runner.execute()
        finished = True
    finally:
        if runner.run is not None:
            _report(runner.run, out, raise_errors=finished, narrow=narrow,
                    drawn=in_cleanup.outcome() if in_cleanup else None)
    if runner.run is None:          # a runner opens its directory first thing, or raises
        raise RuntimeError("the run ended without a directory of its own")
    return runner.run


def _report(run: RunDir, out: IO[str], raise_errors: bool, narrow: bool = False,
            drawn: tuple[RunSummary | None, BaseException | None] | None = None) -> None:
    """drawn: (summary, error) of a report the run's cleanup drew already, or None: draw it now."""
    if drawn is None:
        run.release_reserve("report")
    try:
        if drawn is not None and drawn[1] is not None:
            raise drawn[1]
        summary = drawn[0] if drawn is not None and drawn[0] is not None else render(run)
    except Exception as exc:
        if raise_errors:
            raise
        out.write(f"report: could not render {run.path}: {exc!r}\n")   # the run's own error goes on up
        return
    if summary.cells or summary.burst_cells:
        out.write("\n" + terminal_table(summary, narrow=narrow) + "\n")
    out.write(f"\nrun: report {shown(run.page)}\n")
    out.flush()
