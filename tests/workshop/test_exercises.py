"""The two shortest exercises end to end, as a participant runs them (make exercise N=1, N=6):
the narrated view, the lesson in the run's own figures, bounds from KERNEL_FACTS.md."""
import io
import re

import pytest

from harness.workshop import session
from tests.kernel_facts import FIRST_RTO_S, assert_within, blackhole_bounds, user_timeout_bounds
from tests.scenarios.conftest import assert_nothing_left, cells

RETRIES2_15 = (937, 952)          # KERNEL_FACTS.md: tcp_retries2=15, ETIMEDOUT after the first unacked send


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


def test_exercise_1_the_seed_in_two_minutes(tmp_path):
    summary, text, path = run_exercise(1, tmp_path)
    by_name = cells(summary)
    rto = by_name["retries2-5"]["predicted"]["base_rto_s"]
    assert_within(by_name["retries2-5"]["probe"]["detect_s"], blackhole_bounds(5, lead(summary), rto), "retries2-5")
    assert_within(by_name["user-timeout-5s"]["probe"]["detect_s"], user_timeout_bounds(5.0, lead(summary)),
                  "user-timeout-5s")
    assert_within(by_name["read-timeout-3s"]["probe"]["detect_s"], (2.95, 3.5 + lead(summary)), "read-timeout-3s")
    for name in ("defaults", "keepalive-5-1-3"):      # their error is due ~15 minutes on: not in this run
        assert by_name[name]["probe"]["detect_s"] is None
        assert summary["observed_s"] < RETRIES2_15[0] and by_name[name]["probe"]["within_window"] is None
    # narrated: the fault said in words, the kernel's retransmissions counted from ss, a countdown
    assert "the director dropped the old flows" in text
    assert "RTO 3/15" in text and "budget" in text and re.search(r"error in ~1[56] min", text)
    lesson = text.split("What it teaches, in your run's figures", 1)[1]
    assert "not in this run" not in lesson and "13." in lesson
    assert all(len(line) <= 80 for line in terminal_lines(text, path)), "wider than an 80-column terminal"


def test_exercise_6_the_director_resets_instead(tmp_path):
    summary, text, path = run_exercise(6, tmp_path)
    # KERNEL_FACTS.md: expire_nodest_conn=1 resets a flow at its next packet (the next request, or
    # the outstanding one's retransmission after one RTO): every client is told within about an RTO.
    for cell in summary["cells"]:
        assert_within(cell["probe"]["detect_s"], (0.0, lead(summary) + FIRST_RTO_S[1] + 0.2), cell["cell"])
        assert cell["probe"]["server_after"] == "mysql-replica", cell["cell"]
    assert "reset" in text.split("The question", 1)[1]
    assert all(len(line) <= 80 for line in terminal_lines(text, path))


def test_an_exercise_that_does_not_exist_is_refused_before_anything_starts(tmp_path):
    with pytest.raises(session.ExerciseError, match="no exercise 0"):
        session.run_exercise(0, out=io.StringIO(), results=tmp_path)
