"""The Lab contract (tests/lab_contract.py) in a guest kernel: the same checks as on this host,
with the guest's own Docker engine as the witness."""
import subprocess

import pytest

from tests import lab_contract

PROJECT = "blackhole-test-guest-contract"
MULTICAST_RULE = ["-p", "udp", "-d", "224.0.0.81", "--dport", "8848", "-j", "ACCEPT"]


def guest_docker(guest, *args):
    return subprocess.run(["docker", "-H", guest.docker_host, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.guest
def test_a_lab_in_a_guest_keeps_the_lab_contract(guest):
    """The guest's dockerd restarted first (what a lab's down does when Docker keeps a stale
    endpoint): never under a container, and the lab then runs on the new one."""
    image = guest_docker(guest, "images", "-q", "--filter", "reference=blackhole-lab/*").stdout.split()[0]
    running = guest_docker(guest, "run", "-d", "--network", "none", "--entrypoint", "sleep", image, "300").stdout.strip()
    try:
        pid_before = guest.ssh.run("pgrep -x dockerd").stdout
        assert guest.restart_docker_if_idle() is False
        assert guest.ssh.run("pgrep -x dockerd").stdout == pid_before
        assert guest_docker(guest, "inspect", "-f", "{{.State.Running}}", running).stdout.strip() == "true"
    finally:
        guest_docker(guest, "rm", "-f", running)
    assert guest.restart_docker_if_idle() is True
    assert guest.ssh.run("pgrep -x dockerd").stdout not in ("", pid_before)
    assert guest_docker(guest, "info").returncode == 0
    assert guest.ssh.run("iptables -C DOCKER-USER " + " ".join(MULTICAST_RULE), check=False).returncode == 0

    witness = lab_contract.DockerWitness(guest, ["docker", "-H", guest.docker_host])
    lab_contract.refused_by_preflight_before_anything_starts(lab_contract.lab_for(guest, PROJECT), witness)
    lab = lab_contract.lab_for(guest, PROJECT)
    try:
        lab.up(timeout_s=600)
        lab_contract.check_a_running_lab(lab, witness)
    finally:
        lab_contract.down_leaves_nothing(lab, witness)
