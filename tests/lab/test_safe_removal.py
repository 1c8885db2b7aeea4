"""Removing a lab without racing Docker 20.10's health probes, and clearing the endpoints it
sometimes keeps of removed containers, on this host's real engine (Docker's own inspect is the
witness)."""
import os
import subprocess

import pytest

from harness.lab.engine import HostEngine
from harness.lab.images import LABEL
from harness.lab.container_states import PROJECT_LABEL
from harness.lab.safe_removal import detach_one_by_one, disconnect_stale_endpoints, kill_and_wait_for_probes

PROJECT = f"blackhole-test-removal-{os.getpid()}"
IMAGE = "blackhole-lab/client:dev"
LABELS = ["--label", f"{LABEL}=test", "--label", f"{PROJECT_LABEL}={PROJECT}"]


def docker(*args):
    return subprocess.run(["docker", *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def project():
    yield PROJECT
    ids = docker("ps", "-aq", "--filter", f"label={PROJECT_LABEL}={PROJECT}").split()
    if ids:
        docker("rm", "-f", *ids)
    for network in docker("network", "ls", "-q", "--filter", f"label={PROJECT_LABEL}={PROJECT}").split():
        docker("network", "rm", network)


def test_a_lab_is_killed_and_left_with_no_exec_pending_before_it_is_removed(project):
    container = docker("run", "-d", *LABELS, "--network", "none", "--health-cmd", "true", "--health-interval", "1s",
                       "--entrypoint", "sleep", IMAGE, "300")
    assert kill_and_wait_for_probes(HostEngine().docker(), project) == []
    assert docker("inspect", "-f", "{{.State.Running}} {{len .ExecIDs}}", container) == "false 0"
    docker("rm", container)
    docker("info", "--format", "{{.ServerVersion}}")          # the engine still answers


def test_endpoints_left_on_a_labs_network_are_taken_off_by_force(project):
    network = f"{project}_back"
    docker("network", "create", "--internal", *LABELS, network)
    docker("run", "-d", *LABELS, "--name", f"{project}-held", "--network", network, "--entrypoint", "sleep",
           IMAGE, "300")
    cleared = disconnect_stale_endpoints(HostEngine().docker(), project)
    assert cleared == [f"{network}: {project}-held"]
    assert docker("network", "inspect", "-f", "{{len .Containers}}", network) == "0"
    docker("network", "rm", network)


def test_a_labs_containers_come_off_its_networks_one_at_a_time_while_they_still_run(project):
    networks = [f"{project}_front", f"{project}_back"]
    for network in networks:
        docker("network", "create", "--internal", *LABELS, network)
    held = [docker("run", "-d", *LABELS, "--name", f"{project}-{n}", "--network", networks[0], "--entrypoint", "sleep",
                   IMAGE, "300") for n in ("a", "b")]
    docker("network", "connect", networks[1], held[0])
    assert detach_one_by_one(HostEngine().docker_host, project, timeout_s=30) == 3
    for network in networks:
        assert docker("network", "inspect", "-f", "{{len .Containers}}", network) == "0"
    assert docker("inspect", "-f", "{{.State.Running}}", *held).split() == ["true", "true"]
    assert detach_one_by_one(HostEngine().docker_host, "blackhole-test-no-such-project", timeout_s=30) == 0
