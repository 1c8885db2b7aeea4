"""harness/bench/test_time.py reads each part's counts from pytest's own last line, decorated or not."""
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
