"""make workshop-docs: an exercise with no run here keeps its committed answer (a clone with no
runs rewrites answers.md byte for byte), and a run on another kernel than the exercise names does
not answer it."""
import json
import shutil
from pathlib import Path

from harness.workshop import exercises, session

DOCS = Path(__file__).resolve().parents[2] / "docs" / "workshop"


def test_a_clone_with_no_runs_changes_nothing(tmp_path, capsys):
    for name in ("answers.md", "exercises.md"):
        shutil.copy(DOCS / name, tmp_path / name)
    before = (tmp_path / "answers.md").read_text()
    session.write_docs(tmp_path, results=tmp_path / "no-results")
    assert (tmp_path / "answers.md").read_text() == before
    assert (tmp_path / "exercises.md").read_text() == (DOCS / "exercises.md").read_text()
    said = capsys.readouterr().out
    assert said.count("its committed answer is kept") == len(session.committed_answers(before))


def fake_run(results, scenario_id, kernel, cells, where):
    run = results / scenario_id / f"20260101T000000Z-{kernel}"
    run.mkdir(parents=True)
    (run / "summary.json").write_text(json.dumps({"scenario": scenario_id, "run": run.name, "kernel": kernel,
                                                  "cells": [{"cell": c} for c in cells]}))
    (run / "env.json").write_text(json.dumps({"where": {"where": where}}))
    (run / "scenario.yaml").write_text(json.dumps({"id": scenario_id, "definition": {}}))
    return run


def test_a_run_on_another_kernel_does_not_answer_a_guest_exercise(tmp_path):
    guest = next(ex for ex in exercises.all_exercises() if ex.kernel != "host")
    cells = {cell for cell, _ in session.answers.placeholders(guest.teaches)}
    fake_run(tmp_path, guest.scenario, "6.0.99-amd64", cells, "guest")
    assert session.latest_run(guest, tmp_path) is None
    fake_run(tmp_path, guest.scenario, f"{guest.kernel}.99-amd64", cells, "guest")
    assert session.latest_run(guest, tmp_path) is not None
