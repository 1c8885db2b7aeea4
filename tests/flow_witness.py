"""The director's own flow table as a witness of a blackhole (what `lbctl flows` or `ipvsadm -Lnc`
printed at the run's snapshots)."""
from harness.measure import director_flows, probe_log


def client_address(run, cell_name):
    """The address the cell's connections leave from, as the run recorded it (env.json)."""
    return run.env()["cells"][cell_name]["front_address"]


def entry_of(run, label, cell_name, port):
    """The director's entries, at one snapshot, of the cell's connection from that local port."""
    flows = director_flows.parse_table(run.read(run.director_flows(label)))
    return director_flows.of_client(flows, client_address(run, cell_name), port)


def assert_blackholed_flow_kept_and_reconnection_elsewhere(run, cell_name):
    """The blackholed connection's entry outlives the fault's steps, still pointing at the backend
    it had, while the cell's reconnection lands on another."""
    first, second = probe_log.local_ports(run.read(run.probe_log(cell_name)))[:2]
    [before] = entry_of(run, "before-fault", cell_name, first)
    [after] = entry_of(run, "after-steps", cell_name, first)
    assert after.state == "ESTABLISHED" and after.backend == before.backend, (before, after)
    [reconnected] = entry_of(run, "end", cell_name, second)
    assert reconnected.backend != before.backend, (before, reconnected)
