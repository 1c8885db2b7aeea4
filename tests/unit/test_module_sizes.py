"""No module of the project's own over 300 lines (issue 43's habit): a file that grows past it is
split by what each part does, as probe.py's group mode and connections were. The files counted
are every source file git tracks, scripts without a suffix included (their first line says what
runs them)."""
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MOST_LINES = 300
SOURCE_SUFFIXES = {".py", ".go", ".java", ".c", ".js", ".sh", ".lua"}
INTERPRETERS = ("python", "sh", "bash")


def tracked_sources():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True,
                           text=True).stdout.split("\0")
    for name in filter(None, files):
        path = REPO / name
        if not path.is_file():
            continue
        if path.suffix in SOURCE_SUFFIXES:
            yield path
        elif not path.suffix and path.read_bytes()[:2] == b"#!":
            first = path.read_text(errors="replace").splitlines()[0]
            if any(word in first for word in INTERPRETERS):
                yield path


def test_no_source_file_is_longer_than_300_lines():
    sources = list(tracked_sources())
    assert any(p.name == "cloud-lb-checker" for p in sources)      # scripts without a suffix are counted
    long = {str(p.relative_to(REPO)): n for p in sources
            if (n := len(p.read_text(errors="replace").splitlines())) > MOST_LINES}
    assert not long, f"over {MOST_LINES} lines: {long}"
