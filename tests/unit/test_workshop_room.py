"""A room's runs in one folder (harness/workshop/room.py): a participant's latest run of an exercise
handed in whole, however many hand in at once; the room's page with one comparison per exercise and
each participant's predictions (harness/workshop/predictions.py) beside their figures."""
import json
import multiprocessing

import pytest

from harness.errors import InvalidInput
from harness.workshop import exercises, predictions, room

EXERCISE = 2
CELLS = ("r3", "r4", "r5", "r6", "r7")


def participant_run(results, name, detect_s, guessed=None):
    ex = exercises.exercise(EXERCISE)
    run = results / ex.scenario / f"20261202T0900{len(name):02d}Z-{name}"
    run.mkdir(parents=True)
    cells = [{"cell": c, "knobs": {}, "probe": {"detect_s": detect_s + i, "recover_s": detect_s + i + 0.1,
                                                 "stall_s": None, "error": "ETIMEDOUT", "server_after": "db-replica",
                                                 "within_window": True},
              "predicted": {"expected_s": detect_s + i, "earliest_s": detect_s + i - 0.5, "latest_s": detect_s + i + 0.5,
                            "basis": "tcp_retries2"}} for i, c in enumerate(CELLS)]
    (run / "scenario.yaml").write_text("{}\n")
    (run / "summary.json").write_text(json.dumps({"scenario": ex.scenario, "run": run.name, "kernel": "6.18.44",
                                                  "datapath": "nftables", "cells": cells}))
    (run / "env.json").write_text(json.dumps({"where": {"where": "host"}}))
    (run / "exercise.json").write_text(json.dumps({"exercise": EXERCISE, "seconds": 80.0, "predictions": guessed or {}}))
    (run / ".reserve-end").write_bytes(b"\0" * 16)
    return run


def hand_in_as(args):
    results, the_room, name = args
    return [str(p) for p in room.hand_in(the_room, name, EXERCISE, results=results, say=lambda _: None)]


def test_twenty_laptops_hand_in_at_once_and_each_run_lands_whole(tmp_path):
    the_room = tmp_path / "room"
    the_room.mkdir()
    jobs = []
    for n in range(20):
        results = tmp_path / f"laptop-{n}" / "results"
        participant_run(results, f"p{n:02d}", 6.0 + n * 0.01)
        jobs.append((results, the_room, f"p{n:02d}"))
    with multiprocessing.get_context("fork").Pool(10) as pool:
        handed = pool.map(hand_in_as, jobs)
    assert all(len(h) == 1 for h in handed)
    for n in range(20):
        [landed] = (the_room / f"p{n:02d}").glob("*/*")
        assert (landed / "summary.json").exists() and not (landed / ".reserve-end").exists()
    assert not list(the_room.glob("*/*/.incoming-*"))
    assert hand_in_as(jobs[0]) == handed[0]          # again: already there, nothing copied twice


def test_the_room_page_puts_each_participants_prediction_beside_their_figures(tmp_path):
    the_room = tmp_path / "room"
    the_room.mkdir()
    guesses = {"ana": {"r3": 6.0, "r7": "never"}, "ben": {"r3": 1.2}, "cy": {}}
    for n, (name, guessed) in enumerate(guesses.items()):
        results = tmp_path / name / "results"
        participant_run(results, name, 6.5 + n * 0.1, guessed)
        room.hand_in(the_room, name, EXERCISE, results=results, say=lambda _: None)
    page = room.collect(the_room, out_dir=tmp_path / "page", say=lambda _: None)
    exercise_page = (page.parent / f"exercise-{EXERCISE}" / "index.html").read_text()
    comparison = json.loads((page.parent / f"exercise-{EXERCISE}" / "comparison.json").read_text())
    assert comparison["predictions"] == {"ana": {"r3": 6.0, "r7": "never"}, "ben": {"r3": 1.2}}
    assert exercise_page.count("predicted ") == 3 and "predicted never" in exercise_page and "predicted 1.2 s" in exercise_page
    assert "3 participants" in exercise_page and f"exercise-{EXERCISE}/index.html" in page.read_text()


def test_a_hand_in_names_what_is_wrong_before_copying_anything(tmp_path):
    with pytest.raises(InvalidInput, match="no such folder"):
        room.hand_in(tmp_path / "nowhere", "ana", EXERCISE, results=tmp_path)
    (tmp_path / "room").mkdir()
    with pytest.raises(InvalidInput, match="NAME="):
        room.hand_in(tmp_path / "room", "../ana", EXERCISE, results=tmp_path)
    with pytest.raises(InvalidInput, match=f"no run of exercise {EXERCISE}"):
        room.hand_in(tmp_path / "room", "ana", EXERCISE, results=tmp_path / "empty")
    assert list((tmp_path / "room").iterdir()) == []


@pytest.mark.parametrize("text, message", [
    ("r3=6 r3=7", "predicted twice"), ("r9=6", "no cell of this exercise"), ("r3", "cell=seconds"),
    ("r3=soon", "seconds after the fault"), ("r3=-1", "seconds after the fault")])
def test_a_prediction_is_checked_against_the_exercises_cells(text, message):
    with pytest.raises(InvalidInput, match=message):
        predictions.parse(text, set(CELLS))


def test_predictions_in_seconds_or_never():
    assert predictions.parse("r3=6.5 r4=7s r7=never", set(CELLS)) == {"r3": 6.5, "r4": 7.0, "r7": "never"}
    assert predictions.parse("", set(CELLS)) == {}


def test_a_prediction_of_never_is_drawn_at_the_charts_right_end(tmp_path):
    """The same room twice, ana's r7 predicted 'never' in one: that chart has one cross more (it
    was left off before), the rest of the two the same."""
    charts = []
    for variant, r7 in (("with", {"r7": "never"}), ("without", {})):
        the_room = tmp_path / variant / "room"
        the_room.mkdir(parents=True)
        for n, name in enumerate(("ana", "ben")):
            results = tmp_path / variant / name / "results"
            participant_run(results, name, 6.5 + n * 0.1, {"r3": 6.0, **(r7 if name == "ana" else {})})
            room.hand_in(the_room, name, EXERCISE, results=results, say=lambda _: None)
        page = room.collect(the_room, out_dir=tmp_path / variant / "page", say=lambda _: None)
        charts.append((page.parent / f"exercise-{EXERCISE}" / "comparison.png").read_bytes())
    assert charts[0] != charts[1]


def test_a_difference_equal_to_the_tolerance_at_the_summaries_precision_is_not_flagged(tmp_path):
    """A room of five flagged r7 "+1.670 s (tolerance ±1.670 s)": the difference of two figures
    rounded to the ms came out a hair over the tolerance in floating point."""
    from harness.measure import baseline, comparison, summary_record
    views = []
    for name, detect in (("ana", 6.5), ("ben", 7.15)):
        run = participant_run(tmp_path / name, name, detect)
        views.append((name, summary_record.read(json.loads((run / "summary.json").read_text())),
                      {"where": {"where": "host"}}))
    tolerance = baseline.tolerance_s(baseline.BaselineCell.read("r3", {"detect_s": 6.5, "model": {
        "expected_s": 6.5, "earliest_s": 6.0, "latest_s": 7.0}}), 0.1)
    assert 7.15 - 6.5 > tolerance                              # over it, in floating point
    assert abs(round(7.15 - 6.5, 3) - tolerance) < 1e-9        # equal to it, in the summaries' ms
    r3 = next(c for c in comparison.compare(views).cells if c.name == "r3")
    assert r3.flags == ()
