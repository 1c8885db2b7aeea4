"""The lab inside a QEMU guest booting a packaged Debian kernel (BLACKHOLE_TEST_KERNEL, default 6.12).
One guest is booted for this package's tests and stopped before the host tests go on; each scenario brings its own lab up in it."""
import os
import subprocess

import pytest

from harness import scenario
from harness.lab import engine_for
from harness.lab.images import LABEL
from tests.clock_steps import once_more_if_the_clock_was_set
from tests.host_state import host_links, run_on_default_bridge
from tests.scenarios.conftest import run_scenario_once

KERNEL = os.environ.get("BLACKHOLE_TEST_KERNEL") or "6.12"
PROJECT = "blackhole-lab-guest-test"


@pytest.fixture(scope="package")
def guest():
    """The booted guest (its disk built first when an image changed); the host's links and its
    default bridge are the same after the guest's tests as before them."""
    links_before, run_before = host_links(), run_on_default_bridge()
    with engine_for(KERNEL) as engine:
        engine.ensure_started()
        yield engine
    assert host_links() == links_before, "the guest's tests changed the host's links"
    assert run_on_default_bridge() == run_before, "a container on the host's default bridge no longer runs as before"


def containers_in(guest):
    return subprocess.run(["docker", "-H", guest.docker_host, "ps", "-aq"], capture_output=True, text=True,
                          check=True).stdout.split()


def lab_networks_in(guest):
    return subprocess.run(["docker", "-H", guest.docker_host, "network", "ls", "-q", "--filter", f"label={LABEL}"],
                          capture_output=True, text=True, check=True).stdout.split()


@pytest.fixture
def run_in_guest(guest, tmp_path):
    """run_in_guest(id, **raw overrides) -> (summary, RunDir); nothing may be left in the guest after."""
    def run(scenario_id, **overrides):
        parsed, raw = scenario.load(scenario_id, overrides)
        run = once_more_if_the_clock_was_set(lambda: run_scenario_once(parsed, raw, tmp_path, project=PROJECT,
                                                                         engine=guest))
        assert containers_in(guest) == [], "the run left containers in the guest"
        assert lab_networks_in(guest) == [], "the run left networks in the guest"
        return run.summary(), run
    return run
