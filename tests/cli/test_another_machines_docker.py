"""The lab runs on this machine's Docker engine, whose kernel a run measures and env.json names. A
docker client pointed elsewhere (DOCKER_HOST=ssh://..., tcp://..., or a docker context so) would
run the lab on another machine's kernel, recorded as this one's: refused, by make's setup before
it asks that engine anything, and by the harness before a lab is listed or started."""
import os
import stat
import subprocess

import pytest

from harness.errors import LabError
from harness.lab import REPO, engine
from harness.lab.engine import HostEngine, refuse_another_machines_docker


def docker_pointing_at(tmp_path, endpoint):
    """A `docker` first on PATH whose context is `endpoint` and whose engine answers `docker info`
    (so the script, let past the check, ends there and starts nothing); every call but the
    context's is written down."""
    calls = tmp_path / "calls"
    docker = tmp_path / "docker"
    docker.write_text(f'#!/bin/sh\nif [ "$1" = context ]; then echo "{endpoint}"; exit 0; fi\n'
                      f'echo "$*" >> "{calls}"\n[ "$1" = info ]\n')
    docker.chmod(docker.stat().st_mode | stat.S_IXUSR)
    return calls


def ensure_docker(tmp_path):
    """scripts/ensure-docker.sh with docker_pointing_at's `docker` first on PATH."""
    return subprocess.run([str(REPO / "scripts" / "ensure-docker.sh")], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"})


@pytest.mark.parametrize("endpoint", ["ssh://root@db-host", "tcp://10.0.0.5:2376"])
def test_setup_refuses_a_docker_client_pointed_at_another_machine_and_asks_it_nothing(tmp_path, endpoint):
    calls = docker_pointing_at(tmp_path, endpoint)
    done = ensure_docker(tmp_path)
    assert done.returncode == 1 and f"points at {endpoint}" in done.stderr, done.stderr
    assert not calls.exists(), calls.read_text()          # not even `docker info`


def test_this_machines_socket_passes_the_same_check(tmp_path):
    calls = docker_pointing_at(tmp_path, "unix:///run/user/1000/docker.sock")
    done = ensure_docker(tmp_path)
    assert done.returncode == 0 and "points at" not in done.stderr, done.stderr
    assert calls.read_text().splitlines() == ["info"]       # it went on to ask that engine, which answered


def test_the_harness_refuses_it_before_its_first_call(monkeypatch):
    monkeypatch.setattr(engine, "clients_endpoint", lambda: "ssh://root@db-host")
    monkeypatch.setattr(HostEngine, "_endpoint_checked", False)      # asked once per process: not yet here
    with pytest.raises(LabError, match="points at ssh://root@db-host .*unset DOCKER_HOST"):
        HostEngine().docker()
    refuse_another_machines_docker("unix:///var/run/docker.sock")
