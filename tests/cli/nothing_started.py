"""The lab's command run with a `docker` first on its PATH that writes down each call and fails:
a command that must start nothing (invalid input) is held to having asked Docker for nothing at
all, with no Docker daemon needed (make test-unit runs without one)."""
import os
import stat
import subprocess
import sys

from harness.lab import REPO


def run_without_docker(words, tmp_path, env=None, timeout=60):
    """(the finished `python -m harness WORDS`, [each docker call's arguments])."""
    shim, calls = tmp_path / "docker-shim", tmp_path / "docker-calls"
    shim.mkdir(exist_ok=True)
    docker = shim / "docker"
    docker.write_text(f'#!/bin/sh\necho "$*" >> "{calls}"\nexit 1\n')
    docker.chmod(docker.stat().st_mode | stat.S_IXUSR)
    calls.unlink(missing_ok=True)
    result = subprocess.run([sys.executable, "-m", "harness", *words], cwd=REPO, capture_output=True, text=True,
                            timeout=timeout, env={**os.environ, **(env or {}),
                                                  "PATH": f"{shim}:{os.environ.get('PATH', '')}"})
    return result, calls.read_text().splitlines() if calls.exists() else []
