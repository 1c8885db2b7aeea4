"""make itself, on a copy of the repository with no venv and a PATH whose docker, apt-get and pip
only write down that they were called: a refused knob is one line and exit 2, and nothing was
installed, built or started (no venv made, no installer called)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import make_env

REPO = Path(__file__).resolve().parents[2]
INSTALLERS = ("docker", "apt-get", "pip", "pip3", "debootstrap", "qemu-system-x86_64")


@pytest.fixture(scope="module")
def bare_clone(tmp_path_factory):
    root = tmp_path_factory.mktemp("clone")
    for part in ("Makefile", "requirements.txt", "harness", "scenarios", "exercises", "scripts"):
        copy = shutil.copytree if (REPO / part).is_dir() else shutil.copy
        copy(REPO / part, root / part)
    spies = root / "spies"
    spies.mkdir()
    for name in INSTALLERS:
        spy = spies / name
        spy.write_text(f"#!/bin/sh\necho {name} >> {root}/called\nexit 1\n")
        spy.chmod(0o755)
    return root


def make(root, *words):
    env = {"PATH": f"{root / 'spies'}:{os.environ['PATH']}", "HOME": os.environ.get("HOME", "/root"),
           "PYTHON": sys.executable}
    return subprocess.run(["make", "--no-print-directory", "-C", str(root), *words], capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.mark.parametrize("words, says", [
    (("scenario=lvs-switchover", "TCP_RETRIES=5"), "did you mean TCP_RETRIES2?"),
    (("SCENARIO=lvs-switchover",), "did you mean scenario?"),
    (("scenario=nosuch",), "no such scenario"),
    (("scenario=lvs-switchover", "KERNEL=9.9"), "not a kernel series the lab boots"),
    (("scenario=lvs-switchover", "TCP_RETRIES2=abc"), "must be a whole number"),
    (("kernel-matrix", "scenario=matrix-short", "KERNELS="), "KERNELS: empty"),
    (("kernel-matrix", "scenario=matrix-short", "KERNELS=6.12 6.12"), "6.12 named twice"),
    (("explain", "TCP_RETRIES2=-1"), "between 1 and 255"),
    (("test", "KERNEL=6.1"), "make test does not use it"),
])
def test_make_refuses_before_anything_is_installed(bare_clone, words, says):
    done = make(bare_clone, *words)
    ours = [line for line in done.stderr.splitlines() if line.startswith("blackhole:")]
    assert done.returncode == 2 and len(ours) == 1 and says in ours[0], done.stderr
    assert not (bare_clone / ".venv").exists() and not (bare_clone / "called").exists()
    assert not (bare_clone / "results").exists()


def test_make_explain_takes_a_drivers_settings_without_K():
    done = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(REPO), "explain", "CLIENT=jdbc",
                           "socketTimeout=3000"], capture_output=True, text=True, timeout=300,
                          env=make_env.environment())
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("Answer: the application's socketTimeout=3000 ends a busy "
                                                  "client's wait after about 3.0 s")
