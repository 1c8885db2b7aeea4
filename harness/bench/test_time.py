"""make bench-test: make test-unit alone, then make test whole, from this checkout: each one's wall
time, its tests passed, failed and skipped (pytest's own summary lines, added up: make test runs
three pytest sessions), and its exit code.

Targets (issue 57, printed, not asserted): make test <= 20 min from a clean clone on a 2-core
machine (lint and setup are seconds once the machine is set up; a clean clone's venv and mypy cache
are the machine's), make test-unit <= 60 s with Docker stopped. A part that fails is recorded as
such and the next one still runs: the figures of a red suite are figures too. The host part's
durations, summed per xdist group, go to benchmarks/test-group-seconds.json: make test hands the
groups out longest first by them (tests/longest_first.py)."""
import os
import re
import subprocess
import sys
import time
from typing import IO

from . import store
from . import test_groups

PARTS = ("test-unit", "test")
TEST_TARGET_S = 20 * 60
UNIT_TARGET_S = 60
COUNTED = re.compile(r"(\d+) (passed|failed|skipped|errors?|deselected)")
LAST_LINE = re.compile(r"^=*\s*\d+ (passed|failed|skipped|errors?|deselected).* in [\d.]+s")


def counts(output: str) -> dict[str, int]:
    """{'passed': n, 'failed': n, ...} from pytest's summary lines in a part's output, added up
    ({} if none)."""
    found: dict[str, int] = {}
    for line in output.splitlines():
        if LAST_LINE.match(line.strip("= ")):
            for n, word in COUNTED.findall(line):
                key = word.rstrip("s") if word.startswith("error") else word
                found[key] = found.get(key, 0) + int(n)
    return found


def timed_part(goal: str, out: IO[str] = sys.stdout, pytest_options: str = "") -> tuple[float, int, str]:
    """Run `make <goal>`, its output passed through as it comes; (seconds, exit code, its output)."""
    started = time.monotonic()
    env = {**os.environ, "PYTEST_ADDOPTS": pytest_options} if pytest_options else None
    process = subprocess.Popen(["make", "--no-print-directory", goal], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=env)
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        out.write(line)
        out.flush()
        lines.append(line)
    code = process.wait()
    return round(time.monotonic() - started, 1), code, "".join(lines)


def docker_answers() -> bool:
    """Whether this host's Docker engine answers (the unit tests never ask it, whichever)."""
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def main() -> int:
    parts: dict[str, dict[str, float]] = {}
    for goal in PARTS:
        print(f"bench-test: make {goal} ...", flush=True)
        seconds, code, output = timed_part(goal, pytest_options="--durations=0 --durations-min=0" if goal == "test" else "")
        parts[goal] = {"s": seconds, "exit_code": code, **counts(output)}
        if goal == "test" and code == 0:
            print(f"bench-test: each group's seconds: {test_groups.write(test_groups.group_seconds(output, grouped_only=True))}")
        print(f"bench-test: make {goal}: {seconds} s, exit {code}", flush=True)
    docker = docker_answers()
    path = store("test-time", {**parts, "make_test_s": parts["test"]["s"], "docker_running": docker})
    for goal, part in parts.items():
        said = ", ".join(f"{n} {word}" for word, n in part.items() if word not in ("s", "exit_code"))
        print(f"{goal:11s} {part['s'] / 60:5.1f} min  exit {part['exit_code']}  ({said or 'no pytest summary'})")
    print(f"make test {parts['test']['s'] / 60:.1f} min (target <= {TEST_TARGET_S // 60} min); "
          f"test-unit {parts['test-unit']['s']:.0f} s (target <= {UNIT_TARGET_S} s with Docker stopped; "
          f"Docker {'answered' if docker else 'did not answer'} here)")
    print(f"stored: {path}")
    return 0 if all(part["exit_code"] == 0 for part in parts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
