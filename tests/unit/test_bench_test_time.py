"""harness/bench/test_time.py reads each part's counts from pytest's own summary lines, decorated or
not, added up over the sessions a part runs (make test: host, guest, and the unit and CLI tests)."""
from harness.bench.test_time import counts


def test_the_counts_come_from_pytests_last_summary_line():
    output = "\n".join(["tests/unit/test_a.py::test_b 2 passed in the note",
                        "============ 1 failed, 2098 passed, 26 skipped in 748.81s (0:12:28) ============",
                        "make: *** [Makefile:169: test] Error 1"])
    assert counts(output) == {"failed": 1, "passed": 2098, "skipped": 26}
    assert counts("12 passed, 4 skipped, 2129 deselected in 760.97s (0:12:40)\n") == {
        "passed": 12, "skipped": 4, "deselected": 2129}
    assert counts("1951 passed in 46.55s\n") == {"passed": 1951}
    assert counts("3 errors in 2.0s") == {"error": 3}


def test_a_part_that_printed_no_summary_has_no_counts():
    assert counts("blackhole: TEST_WORKERS=0 is not a whole number from 1 to 16\n") == {}


def test_make_tests_three_sessions_are_added_up():
    output = "\n".join(["==== 1850 passed, 26 skipped in 600.10s (0:10:00) ====",
                        "==== 12 passed, 4 skipped, 2194 deselected in 580.20s (0:09:40) ====",
                        "beside: .venv/bin/python -m pytest -q -n 2 tests/unit tests/cli (nice 19, beside the above): exit 0",
                        "2140 passed in 200.00s (0:03:20)"])
    assert counts(output) == {"passed": 4002, "skipped": 30, "deselected": 2194}


def test_make_tests_group_seconds_are_the_host_parts_groups_alone():
    from harness.bench.test_groups import group_seconds
    output = "\n".join(["30.00s call     tests/scenarios/test_web.py::test_a@tests/scenarios/test_web.py",
                        "12.50s setup    tests/scenarios/test_matrix.py::test_b@tests/scenarios",
                        "70.00s call     tests/guest/test_keepalived.py::test_c",
                        "0.50s call     tests/unit/test_d.py::test_e"])
    assert group_seconds(output, grouped_only=True) == {"tests/scenarios/test_web.py": 30.0, "tests/scenarios": 12.5}
    assert group_seconds(output)["tests/guest/test_keepalived.py"] == 70.0
