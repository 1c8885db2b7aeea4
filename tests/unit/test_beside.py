"""scripts/beside.sh: the quiet command runs beside the main one at nice 19, its output follows the
main one's, and the exit is 0 only if both passed."""
import subprocess
from pathlib import Path

BESIDE = Path(__file__).parents[2] / "scripts" / "beside.sh"


def beside(*argv):
    return subprocess.run([str(BESIDE), *argv], capture_output=True, text=True, timeout=30)


def test_the_quiet_commands_output_follows_the_main_ones_and_it_ran_at_nice_19():
    done = beside("sh", "-c", "echo quiet niceness $(nice)", "--", "sh", "-c", "sleep 0.2; echo main")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "main" and lines[-1] == "quiet niceness 19", lines


def test_either_failing_fails_the_whole():
    assert beside("false", "--", "true").returncode != 0
    assert beside("true", "--", "false").returncode != 0
    assert beside("true", "--", "true").returncode == 0


def test_without_both_commands_it_says_how_to_call_it():
    done = beside("true")
    assert done.returncode == 2 and "usage" in done.stderr
