"""make test's guest part collects tests/guest alone (the whole tree took 5.5 s to collect, the
folder 2.2 s): a test marked `guest` anywhere else would never run, so none may be."""
import re
from pathlib import Path

TESTS = Path(__file__).parents[1]
GUEST_MARK = re.compile(r"\bmark\.guest\b")


def test_every_test_marked_guest_is_under_tests_guest():
    elsewhere = [str(path.relative_to(TESTS)) for path in TESTS.rglob("*.py")
                 if GUEST_MARK.search(path.read_text()) and path.parent.name != "guest"
                 and path != Path(__file__)]
    assert elsewhere == []


def test_make_tests_guest_part_collects_that_folder():
    makefile = (TESTS.parent / "Makefile").read_text()
    assert '-m pytest -m guest tests/guest\n' in makefile
