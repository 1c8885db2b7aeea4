"""Cells as network namespaces in one client container (`namespaces: netns`): each namespace has
its own sysctls and address, the kernel holds each cell to docs/facts/kernel.md as in a container of
its own, and nothing of the namespaces outlives the run."""
import subprocess
from pathlib import Path

from harness.measure import director_flows, probe_log
from harness.store import RunDir
from tests.kernel_facts import APP_TIMER_LATE_S, SEND_STAMP_S, blackhole_bounds, user_timeout_bounds
from tests.scenarios.conftest import assert_waited, cells


def host_macvlans():
    return subprocess.run(["ip", "-o", "link", "show", "type", "macvlan"], capture_output=True, text=True,
                          check=True).stdout.splitlines()


def host_netns_mounts():
    return [line for line in Path("/proc/self/mounts").read_text().splitlines() if " nsfs " in line
            and "/run/docker/netns/" not in line]


def test_a_grid_in_network_namespaces_of_one_container(run_scenario):
    macvlans_before, mounts_before = host_macvlans(), host_netns_mounts()
    summary, run_dir = run_scenario("matrix-short", namespaces="netns")
    run = RunDir(run_dir)
    env = run.env()
    by_name = cells(summary)
    assert env["cell_namespaces"] == "netns"
    # One client container for the three namespaces, and no container of a cell's own.
    assert [s for s in run.services_logged() if s.startswith("client")] == ["client-netns"]

    # Each namespace's own tcp_retries2, read back from inside it, and an address of its own.
    for namespace in ("r2", "r3", "r5"):
        assert env["namespaces"][namespace]["tcp_retries2"] == int(namespace[1:])
    addresses = {c["container"]: c["front_address"] for c in env["cells"].values()}
    assert len(set(addresses.values())) == 3
    # The director's own table: every cell's connection came from its namespace's address.
    before = {f.client for f in director_flows.parse_table(run.read(run.director_flows("before-fault")))}
    for name, cell in env["cells"].items():
        port = probe_log.local_ports(run.read(run.probe_log(name)))[0]
        assert f"{cell['front_address']}:{port}" in before, f"{name}: no flow from {cell['front_address']}:{port}"

    # What the kernel does in each namespace, held to docs/facts/kernel.md (not the harness's model),
    # counted from each client's failed send.
    for retries2 in (2, 3, 5):
        plain = by_name[f"r{retries2}"]
        assert plain["probe"]["error"] == "MYSQL_2013"
        assert_waited(plain, blackhole_bounds(retries2, SEND_STAMP_S, plain["predicted"]["base_rto_s"]))
        assert_waited(by_name[f"r{retries2}-ut3000"], user_timeout_bounds(3.0, SEND_STAMP_S))
        # the probe's own 2 s read timeout, which may fire 50 ms late on a busy machine
        assert_waited(by_name[f"r{retries2}-rt2"], (2.0, 2.0 + SEND_STAMP_S + APP_TIMER_LATE_S))
        assert plain["probe"]["server_after"] == "db-replica"

    # The namespaces lived in the container: nothing of them is on the host now.
    assert host_macvlans() == macvlans_before
    assert host_netns_mounts() == mounts_before
