"""A test that times something real (elapsed monotonic time, a probe's own t1 - t0, a sub-second
timeout against a real wait) lives in tests/clock, not here: make test runs tests/unit and tests/cli
at nice 19 beside the labs, where the figure would say how busy the labs were (tests/clock/README.md)."""
import re
from pathlib import Path

TESTS = Path(__file__).parents[1]
# elapsed time measured, or a sub-second timeout raced against a real wait (a client's 0.3 s against
# a server's 1 s sleep in one process: at nice 19, 2026-12-06, the server answered first)
ELAPSED = re.compile(r"(monotonic|perf_counter)\(\) - |\[\"t1\"\] - |timeout(_s)?=0\.\d")


def timed_lines(folder):
    return [f"{path.relative_to(TESTS)}:{n}" for path in sorted(folder.glob("*.py")) if path != Path(__file__)
            for n, line in enumerate(path.read_text().splitlines(), 1) if ELAPSED.search(line)]


def test_no_test_beside_the_labs_times_anything():
    assert timed_lines(TESTS / "unit") + timed_lines(TESTS / "cli") == []


def test_the_check_finds_what_tests_clock_times():
    assert len(timed_lines(TESTS / "clock")) >= 5
