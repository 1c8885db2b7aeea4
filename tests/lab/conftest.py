"""One real lab for the tests of this package, on its own project name and subnets."""
import os
from pathlib import Path

import pytest
import testinfra

from harness.director.commands import LbCommands
from harness.lab import ClientCell, ComposeLab, LabRequest

PROJECT = f"blackhole-test-lab-{os.getpid()}"
CELLS = [ClientCell("r5", (("net.ipv4.tcp_retries2", 5),))]
HOST_RETRIES2 = Path("/proc/sys/net/ipv4/tcp_retries2")


@pytest.fixture(scope="session")
def host_retries2_before():
    return HOST_RETRIES2.read_text()


@pytest.fixture(scope="package")
def lab(host_retries2_before):
    lab = ComposeLab(LabRequest(project=PROJECT, cells=CELLS, datapath=os.environ.get("LB_DATAPATH") or "auto"))
    try:
        lab.up()
        yield lab
    finally:
        lab.down()


@pytest.fixture
def director(lab):
    """The director's commands (the manual control plane's), put back to its start configuration
    after each test."""
    director = LbCommands(lab)
    yield director
    director.reset()


@pytest.fixture
def node(lab):
    """testinfra host of a service: node('client-r5').file(...)."""
    return lambda service: testinfra.get_host(f"docker://{lab.container_name(service)}")
