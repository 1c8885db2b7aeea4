"""A command run with a time limit that holds for everything it started: `docker compose` is a CLI
plugin, a child of the docker CLI, and subprocess.run's timeout kills only the CLI, leaving the
plugin running on (still asking a wedged engine). This one runs the command in its own session
and kills the whole session at the limit."""
import os
import signal
import subprocess
from collections.abc import Sequence
from typing import Any


def run_bounded(argv: Sequence[str], timeout: float | None, **options: Any) -> subprocess.CompletedProcess[str]:
    """subprocess.run(argv, capture_output=True, text=True, timeout=timeout), with every process of
    the command killed at the timeout (subprocess.TimeoutExpired is raised then, as run does) or
    when the wait is interrupted (a signal the harness turned into an exception)."""
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                          start_new_session=True, **options) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_session(process)
            process.communicate()
            raise
        except BaseException:               # an interrupted run: its cleanup should not wait for the command
            _kill_session(process)
            raise
        return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)


def _kill_session(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
