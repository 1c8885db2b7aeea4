"""measure/verdict.py: a cell's verdict has three values, each with why; a run's composes its cells'
(invalid over unknown over valid); the page, the summary's reader and the headline say unknown as such."""
import pytest

from harness.measure import summary_record
from harness.measure.predict import Window
from harness.measure.summary_error import SummaryError
from harness.measure.verdict import INVALID, UNKNOWN, VALID, Verdict, of_cell, of_run
from harness.report import headline, tables

WINDOW = Window(13.4, 13.1, 13.8, "tcp_retries2")
DONE = summary_record.RunStatus("completed")
EVIDENCE = ("clients/r5/probe.jsonl", "events.jsonl")


def judge(detect_s, window=WINDOW, status=DONE, observed_s=60.0, never_worked=None, sent_s=None):
    return of_cell(window, detect_s, sent_s, never_worked, status, observed_s, EVIDENCE)


def test_an_error_inside_the_window_is_valid_and_says_where():
    verdict = judge(13.5)
    assert (verdict.value, verdict.within_window, verdict.evidence) == (VALID, True, EVIDENCE)
    assert verdict.why == "the error at 13.50 s, inside the model's window 13.10-13.80 s"


@pytest.mark.parametrize("detect_s, where", [(14.2, "after"), (12.0, "before")])
def test_an_error_outside_the_window_is_invalid_and_says_which_side(detect_s, where):
    verdict = judge(detect_s)
    assert (verdict.value, verdict.within_window) == (INVALID, False)
    assert f"{where} the model's window 13.10-13.80 s" in verdict.why


def test_a_late_send_moves_the_window_and_the_verdict_says_so():
    window = Window(13.4, 13.1, 13.8, "tcp_retries2", send_by_s=0.3)
    verdict = judge(14.2, window=window, sent_s=0.9)
    assert verdict.value == VALID and "moved 0.60 s with its late send" in verdict.why


def test_no_error_where_the_model_expects_one_is_invalid_once_the_window_was_watched():
    verdict = judge(None, observed_s=20.0)
    assert verdict.value == INVALID and verdict.why == "no error by the run's end; the model's window is 13.10-13.80 s"


@pytest.mark.parametrize("status, observed_s, never_worked, why", [
    (summary_record.RunStatus("interrupted", phase="observing"), 10.0, None, "no error yet when the run interrupted while observing"),
    (DONE, 5.0, None, "no error in the 5.0 s the run watched; the model's window opens at 13.10 s"),
    (DONE, 60.0, "MYSQL_1045: Access denied", "the client never worked before the fault (MYSQL_1045: Access denied)"),
])
def test_what_the_run_cannot_tell_is_unknown_never_a_miss(status, observed_s, never_worked, why):
    verdict = judge(None, status=status, observed_s=observed_s, never_worked=never_worked)
    assert (verdict.value, verdict.within_window, verdict.why) == (UNKNOWN, None, why)


def test_where_the_model_says_never_no_error_is_valid_and_an_error_invalid():
    never = Window(None, None, None, "TCP_USER_TIMEOUT off, no keepalive: the hang outlasts the run")
    assert judge(None, window=never).value == VALID
    assert judge(3.0, window=never).why == "an error at 3.00 s where the model says none"


def test_a_run_is_invalid_if_any_cell_is_else_unknown_if_any_is_else_valid():
    valid, invalid, unknown = Verdict(VALID, "a"), Verdict(INVALID, "b"), Verdict(UNKNOWN, "c")
    assert of_run([("r3", valid), ("r5", unknown), ("r8", invalid)]).why == "1 of 3 cell(s) outside the model: r8"
    assert of_run([("r3", valid), ("r5", unknown)]).value == UNKNOWN
    assert of_run([("r3", valid), ("r5", valid)]).value == VALID
    assert of_run([]).value == UNKNOWN


def test_a_verdict_read_back_is_the_one_written_and_a_bad_one_is_refused():
    verdict = judge(14.2)
    assert Verdict.read(verdict.as_json(), "cell r5") == verdict
    with pytest.raises(SummaryError, match="cell r5"):
        Verdict.read({"value": "maybe", "why": "?"}, "cell r5")
    with pytest.raises(ValueError):
        Verdict("maybe", "?")


def summary_with(verdict):
    probe = {"detect_s": None, "recover_s": None, "error": None, "stall_s": None, "server_after": None,
             "never_worked": None, "within_window": verdict.within_window, "verdict": verdict.as_json()}
    cell = {"cell": "defaults", "knobs": {}, "probe": probe,
            "predicted": {"expected_s": 939.0, "earliest_s": 928.9, "latest_s": 948.3, "basis": "tcp_retries2"}}
    return summary_record.read({"scenario": "s", "run": "r", "status": DONE.as_json(), "cells": [cell],
                                "verdict": of_run([("defaults", verdict)]).as_json()})


def test_the_page_the_reader_and_the_headline_say_unknown_with_why():
    verdict = judge(None, window=Window(939.0, 928.9, 948.3, "tcp_retries2"), observed_s=25.6)
    summary = summary_with(verdict)
    [row] = tables.failover_rows(summary)
    assert row[3] == f"unknown: {verdict.why}"
    assert summary.cells[0].probe.verdict == verdict and summary.verdict is not None and summary.verdict.value == UNKNOWN
    assert f"Not decided by the run: defaults ({verdict.why})." in " ".join(headline.sentences(summary))
    assert "verdict: unknown: 1 of 1 cell(s) not decided: defaults" in tables.markdown(summary)
