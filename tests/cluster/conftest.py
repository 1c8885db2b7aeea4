"""One cluster for the cluster tests (`make test-cluster`): up once, down at the end, nothing left;
what the tests measured stored with its start's timings (harness/bench store(): benchmarks/cluster.jsonl)."""
import json
import time

import pytest

from harness.lab.cluster import ClusterNode
from harness.lab.cluster.api import wait_for
from harness.lab.cluster.assets import ALLOWED_UNSAFE_SYSCTLS
from harness.lab.compose import REPO
from harness.lab.guest.qemu import running_guests

NAMESPACE = "/api/v1/namespaces/default"
# The test's node allows every knob a cell can set but one, to be refused for it.
NOT_ALLOWED = "net.ipv4.tcp_syn_linear_timeouts"
POD_S = 600                 # created -> Running/Succeeded (TCG, one vCPU: 70-80 s)
FIGURES = {}                # what the tests measured


@pytest.fixture(scope="package")
def node():
    node = ClusterNode(home=REPO / ".lab" / "cluster-test",
                       allowed_unsafe_sysctls=[name for name in ALLOWED_UNSAFE_SYSCTLS if name != NOT_ALLOWED])
    guests_before = set(running_guests())
    try:
        node.up()
        yield node
        bench = REPO / "results" / "bench"
        bench.mkdir(parents=True, exist_ok=True)
        (bench / f"cluster-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.json").write_text(
            json.dumps({"up": node.state(), "pods": FIGURES}, indent=1) + "\n")
    finally:
        node.down()
    assert set(running_guests()) <= guests_before, "the cluster's QEMU outlived cluster-down"
    assert not node.home.exists()


def phase(api, name):
    return api.get(f"{NAMESPACE}/pods/{name}")["status"].get("phase")


def wait_running(api, name, figure):
    FIGURES[figure] = wait_for(f"pod {name} Running", lambda: phase(api, name) == "Running", POD_S, poll_s=0.5)
    return api.get(f"{NAMESPACE}/pods/{name}")["status"]["podIP"]
