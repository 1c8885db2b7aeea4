"""The two shortest exercises end to end, as a participant runs them (make exercise N=5, N=6):
the narrated view, the lesson in the run's own figures, bounds from docs/facts/kernel.md."""
import io
import re

import pytest

from harness.store import RunDir
from harness.workshop import session
from tests.kernel_facts import FIRST_RTO_S, assert_error_within, assert_within, blackhole_bounds
from tests.kernel_witness import answer_lost_in_flight
from tests.scenarios.conftest import assert_nothing_left, cells



def run_exercise(number, tmp_path):
    out = io.StringIO()
    run = session.run_exercise(number, out=out, results=tmp_path)
    text = out.getvalue()
    print(text)
    assert_nothing_left(run)
    return run.summary(), text, str(run.path)


def lead(summary):
    return 0.1 + summary["fault"]["uncertainty_s"]


def terminal_lines(text, run_path):
    """What the participant reads in the terminal, but for lines naming the run's directory (a
    path as long as the machine makes it)."""
    return [line for line in text.splitlines() if run_path not in line and "results/" not in line]


def test_exercise_5_the_applications_own_read_timeout(tmp_path):
    summary, text, path = run_exercise(5, tmp_path)
    by_name = cells(summary)
    for name, timeout_s in (("rt1s", 1.0), ("rt2s", 2.0), ("rt5s", 5.0)):
        assert_within(by_name[name]["probe"]["detect_s"], (timeout_s - 0.05, timeout_s + 0.5 + lead(summary)), name)
    late = by_name["retries2-5-rt20s"]       # the kernel's budget ends first: docs/facts/kernel.md's tcp_retries2=5
    assert_error_within(late, blackhole_bounds(5, lead(summary), late["predicted"]["base_rto_s"]), late["cell"])
    # narrated: the fault said in words, the kernel's retransmissions counted from ss, the countdowns
    assert "the director dropped the old flows" in text
    assert re.search(r"RTO [1-9]/15 next", text) and "app gives up in" in text and "budget" in text
    assert re.search(r"retries2-5-rt20s +RTO \d/5 next [\d.]+s, budget \d+s left, error in ~\d+s", text)
    lesson = text.split("What it teaches, in your run's figures", 1)[1]
    # the lesson quotes the kernel's figure of this run (14.0 s as well as 13.x s: it is held to
    # docs/facts/kernel.md above), not a fixed one
    assert "not in this run" not in lesson and f"{late['probe']['detect_s']:.1f} s" in " ".join(lesson.split())
    assert all(len(line) <= 80 for line in terminal_lines(text, path)), "wider than an 80-column terminal"


def test_exercise_6_the_director_resets_instead(tmp_path):
    summary, text, path = run_exercise(6, tmp_path)
    # docs/facts/kernel.md: expire_nodest_conn=1 resets a flow at its next packet (the next request, or
    # the outstanding one's retransmission after one RTO): every client is told within about an RTO.
    # A cell whose request the old server had ACKed just before the swap waits for an answer the
    # director dropped: nothing is left to send, so nothing meets the reset (ss: no timer on).
    waiting = [c["cell"] for c in summary["cells"] if c["probe"]["detect_s"] is None
               and answer_lost_in_flight(RunDir(path), c["cell"], summary["fault"]["t"])]
    print(f"answers lost in flight: {waiting}")
    assert len(waiting) < len(summary["cells"])
    assert all(c["probe"].get("waits_for_a_lost_answer") for c in summary["cells"] if c["cell"] in waiting), \
        "the run's table does not say 'lost answer'"
    for cell in summary["cells"]:
        if cell["cell"] in waiting:
            continue
        assert_within(cell["probe"]["detect_s"], (0.0, lead(summary) + FIRST_RTO_S[1] + 0.2), cell["cell"])
        assert cell["probe"]["server_after"] == "db-replica", cell["cell"]
    assert "reset" in text.split("The question", 1)[1]
    assert all(len(line) <= 80 for line in terminal_lines(text, path))


def test_an_exercise_that_does_not_exist_is_refused_before_anything_starts(tmp_path):
    with pytest.raises(session.ExerciseError, match="no exercise 0"):
        session.run_exercise(0, out=io.StringIO(), results=tmp_path)


def test_a_room_of_two_hands_in_exercise_6_and_the_room_page_shows_each_prediction(tmp_path):
    """Two participants, each with a results root of their own, run exercise 6 with their
    predictions and hand it in to one folder; the facilitator's page opens in Chromium with its
    chart, every run's figure and each prediction beside it."""
    from harness.workshop import room
    from tests.scenarios.test_report_html import chromium
    share = tmp_path / "room"
    share.mkdir()
    guesses = {"ana": "defaults=939 retries2-5=13.4 read-timeout-3s=3", "ben": "defaults=never retries2-5=0.3"}
    for name, predicted in guesses.items():
        out = io.StringIO()
        run = session.run_exercise(6, out=out, results=tmp_path / name, predicted=predicted, participant=name)
        assert_nothing_left(run)
        assert "Your predictions beside your run" in out.getvalue()
        [handed] = room.hand_in(share, name, 6, results=tmp_path / name, say=print)
        assert (handed / "exercise.json").exists() and handed.name == run.name
    page = room.collect(share, out_dir=tmp_path / "page", say=print)
    exercise_page = page.parent / "exercise-6" / "index.html"
    dom = chromium("--virtual-time-budget=10000", "--dump-dom", exercise_page.as_uri()).stdout
    assert 'data-images="1/1"' in dom, "the room's chart did not load"
    assert dom.count("predicted ") == 5 and "predicted never" in dom and "predicted 939 s" in dom
    assert "ana" in dom and "ben" in dom
