"""make workshop-docs over the record of measured answers (harness/workshop/record.py, docs.py): a
clone with no runs changes nothing; a run that agrees with the committed answer (each figure the
same, or its cell inside its model window both times) leaves it as it is, one that disagrees
rewrites it; a run, or a committed answer, from another kernel than the exercise names is not
its answer."""
import json
import shutil

from harness.measure import summary_record
from harness.workshop import answers, docs, exercises, record

KIT_FILES = ("README.md", "exercises.md", "facilitator/answers.md", "facilitator/answers.json")


def kit_copy(tmp_path):
    for name in KIT_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(docs.DOCS_DIR / name, tmp_path / name)
    return {name: (tmp_path / name).read_text() for name in KIT_FILES}


def test_a_clone_with_no_runs_changes_nothing(tmp_path):
    before = kit_copy(tmp_path)
    said = []
    docs.write_docs(tmp_path, results=tmp_path / "no-results", say=said.append)
    assert {name: (tmp_path / name).read_text() for name in KIT_FILES} == before
    committed = record.load(docs.DOCS_DIR / "facilitator" / "answers.json")
    assert sum("its committed answer is kept" in line for line in said) == len(committed)


def summary_of(ex, detect_s, within, run="20260101T000000Z-a"):
    cells = sorted({cell for cell, _ in answers.placeholders(ex.teaches)})
    return {"scenario": ex.scenario, "run": run, "kernel": "6.18.44",
            "cells": [{"cell": c, "probe": {"detect_s": detect_s, "recover_s": detect_s + 0.1, "stall_s": None,
                                            "error": "MYSQL_2013", "server_after": "db-replica",
                                            "within_window": within},
                       "predicted": {"expected_s": 13.4, "earliest_s": 13.1, "latest_s": 13.8}} for c in cells]}


def fake_run(results, summary, where, kernel):
    run = results / summary["scenario"] / summary["run"]
    run.mkdir(parents=True)
    (run / "summary.json").write_text(json.dumps({**summary, "kernel": kernel}))
    (run / "env.json").write_text(json.dumps({"where": {"where": where}}))
    (run / "scenario.yaml").write_text(json.dumps({"id": summary["scenario"], "definition": {}}))
    (run / "exercise.json").write_text(json.dumps({"seconds": 61.0, "paused": False}))
    return run


def host_exercise():
    return next(ex for ex in exercises.all_exercises() if ex.kernel == "host"
                and all(field == "detect" for _, field in answers.placeholders(ex.teaches)))


def test_a_run_in_its_window_keeps_the_answer_one_outside_rewrites_it(tmp_path):
    ex = host_exercise()
    committed = {ex.number: record.entry(ex, summary_record.read(summary_of(ex, 13.4, True)), {"where": {"where": "host"}}, 60.0)}
    results = tmp_path / "results"
    fake_run(results, summary_of(ex, 13.6, True, "20260101T000001Z-b"), "host", "6.18.44")  # in its window again
    said = []
    assert docs.updated_record(committed, results, said.append)[ex.number] == committed[ex.number]
    assert any(f"exercise {ex.number}: run" in s and "agrees" in s for s in said)
    fake_run(results, summary_of(ex, 21.0, False, "20260101T000002Z-c"), "host", "6.18.44")  # outside it
    updated = docs.updated_record(committed, results, said.append)[ex.number]
    assert updated != committed[ex.number] and updated["seconds"] == 61.0
    assert "21.0 s" in updated["answer"]


def test_a_run_on_another_kernel_does_not_answer_a_guest_exercise(tmp_path):
    guest = next(ex for ex in exercises.all_exercises() if ex.kernel != "host")
    cells = {cell for cell, _ in answers.placeholders(guest.teaches)}
    summary = {"scenario": guest.scenario, "run": "20260101T000000Z-a", "cells": [{"cell": c} for c in cells]}
    fake_run(tmp_path, summary, "guest", "6.0.99-amd64")
    assert docs.latest_run(guest, tmp_path) is None
    fake_run(tmp_path, {**summary, "run": "20260101T000001Z-b"}, "guest", f"{guest.kernel}.99-amd64")
    assert docs.latest_run(guest, tmp_path) is not None


def test_a_committed_answer_from_another_kernel_is_kept_but_not_written_as_the_answer(tmp_path):
    guest = next(ex for ex in exercises.all_exercises() if ex.kernel != "host")
    wrong = {**record.entry(guest, summary_record.read(summary_of(guest, 13.4, True)), {"where": {"where": "guest"}}, 300.0),
             "measured_on": "6.1.0-56-amd64"}
    said = []
    kept = docs.updated_record({guest.number: wrong}, tmp_path / "none", said.append)
    assert kept[guest.number] == wrong and any("not written as its answer" in s for s in said)
    page = docs.answers_markdown(kept)
    part = page.split(f"## {guest.number}. ", 1)[1].split("\n## ", 1)[0]
    assert "not this exercise's answer" in part and wrong["answer"] not in part
