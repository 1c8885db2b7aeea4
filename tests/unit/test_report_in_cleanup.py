"""A failover run's report is drawn by its cleanup once the timeline is merged, beside the lab's
taking down (pipeline.ReportInCleanup): the pipeline then shows it without drawing it again, raises
its error when the run itself went well, says it beside the run's own error otherwise, and draws
the report itself when the cleanup never got to it."""
import io
import types

import pytest

from harness import pipeline
from harness.measure import summary_record

A_CELL = {"cell": "r5", "probe": {"detect_s": 13.4, "recover_s": 13.5}, "predicted": {"expected_s": 13.5}}


def summary(*cells):
    return summary_record.read({"scenario": "lvs-switchover", "run": "r", "cells": list(cells)})


class FakeRun:
    path = page = "/tmp/nowhere/index.html"

    def __init__(self):
        self.released = []

    def release_reserve(self, part):
        self.released.append(part)


class FakeRunner:
    def __init__(self, draws_in_cleanup=True, fails=None, report=None):
        self.run, self.report, self.draws, self.fails = FakeRun(), report, draws_in_cleanup, fails

    def execute(self):
        try:
            if self.fails:
                raise self.fails
        finally:
            if self.draws and self.report:
                self.report(self.run)         # what FailoverRun's cleanup does once the timeline is merged


def run_with(monkeypatch, render, **runner):
    drawn = []

    def fake_render(run):
        drawn.append(run)
        return render(run)
    monkeypatch.setattr(pipeline, "render", fake_render)
    monkeypatch.setattr(pipeline, "terminal_table", lambda summary, narrow=False: "the table")
    monkeypatch.setattr(pipeline, "runner_for",
                        lambda scenario, raw, report=None, **options: FakeRunner(report=report, **runner))
    out = io.StringIO()
    scenario = types.SimpleNamespace(kind="failover")
    try:
        run = pipeline.run_and_report(scenario, {}, out=out)
    except Exception as exc:
        return drawn, out.getvalue(), exc, None
    return drawn, out.getvalue(), None, run


def test_a_report_the_cleanup_drew_is_shown_and_not_drawn_again(monkeypatch):
    drawn, said, error, run = run_with(monkeypatch, lambda run: summary(A_CELL))
    assert len(drawn) == 1 and error is None
    assert "the table" in said and "run: report" in said
    assert run.released == ["report"]


def test_a_report_that_failed_in_the_cleanup_fails_a_run_that_went_well(monkeypatch):
    def broken(run):
        raise ValueError("no summary")
    drawn, said, error, _ = run_with(monkeypatch, broken)
    assert len(drawn) == 1 and isinstance(error, ValueError)


def test_beside_the_runs_own_error_a_failed_report_is_said_and_the_runs_error_goes_on(monkeypatch):
    def broken(run):
        raise ValueError("no summary")
    drawn, said, error, _ = run_with(monkeypatch, broken, fails=RuntimeError("lab failed"))
    assert len(drawn) == 1 and isinstance(error, RuntimeError)
    assert "report: could not render" in said and "no summary" in said


def test_a_report_the_cleanup_never_drew_is_drawn_by_the_pipeline(monkeypatch):
    drawn, said, error, run = run_with(monkeypatch, lambda run: summary(), draws_in_cleanup=False)
    assert len(drawn) == 1 and error is None and run.released == ["report"]


@pytest.mark.parametrize("kind", ["burst"])
def test_a_burst_run_is_drawn_after_its_cleanup_as_before(monkeypatch, kind):
    monkeypatch.setattr(pipeline, "runner_for", lambda scenario, raw, **options: (_ for _ in ()).throw(
        AssertionError("report= given")) if "report" in options else FakeRunner(draws_in_cleanup=False))
    monkeypatch.setattr(pipeline, "render", lambda run: summary())
    pipeline.run_and_report(types.SimpleNamespace(kind=kind), {}, out=io.StringIO())
