"""The library reads the environment in one place (harness/settings/machine.py, and the edge
check beside it); the command line (cli/, __main__) and the benchmarks' entry points read their
own arguments. A knob read anywhere else would escape the edge's validation."""
import re
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[2] / "harness"
READERS = ("settings", "cli", "bench")
READ = re.compile(r"os\.environ(\.get\(|\[)|os\.getenv\(")


def test_only_the_settings_the_command_line_and_the_benchmarks_read_the_environment():
    reading = [f"{path.relative_to(HARNESS)}:{number}" for path in sorted(HARNESS.rglob("*.py"))
               if path.relative_to(HARNESS).parts[0] not in READERS and path.name != "__main__.py"
               for number, line in enumerate(path.read_text().splitlines(), 1) if READ.search(line)]
    assert reading == []
