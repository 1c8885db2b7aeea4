"""In a guest kernel that has IPVS: the seed's blackhole through the real ipvsadm director."""
import pytest

from harness.measure import director_flows, probe_log
from tests.kernel_facts import assert_within, blackhole_bounds

pytestmark = pytest.mark.guest


def entry_of(run, label, port):
    flows = director_flows.parse_table(run.read(run.director_flows(label)))
    return director_flows.of_client_port(flows, port)


def test_the_seed_blackhole_through_real_ipvs(run_in_guest, guest):
    summary, run = run_in_guest("lvs-switchover", TCP_RETRIES2="5", warmup_s=10)
    [cell] = summary["cells"]
    env = run.env()
    assert env["datapath"] == "ipvs" and env["where"]["where"] == "guest"
    assert env["kernel"] == guest.kernel_release() and env["director"]["ipvs_expire_nodest_conn"] == 0
    probe = cell["probe"]
    # KERNEL_FACTS.md (tcp_retries2=5: 12.8-13.5 s after the first unacknowledged send), its ladder
    # scaled to the RTO the guest's kernel reported (VM_FACTS.md: 204-216 ms under TCG); the send comes
    # up to a probe interval and the swap's landing uncertainty after t_fault. Not the model's window.
    bounds = blackhole_bounds(5, 0.1 + summary["fault"]["uncertainty_s"], cell["predicted"]["base_rto_s"])
    assert_within(probe["detect_s"], bounds, cell["cell"])
    assert probe["within_window"], (probe, cell["predicted"])
    assert probe["error"] == "MYSQL_2013" and probe["server_after"] == "mysql-replica"
    # The director's own table: the blackholed connection's entry outlives the swap, still
    # pointing at the removed primary, while the reconnection lands elsewhere.
    first, second = probe_log.local_ports(run.read(run.probe_log(cell["cell"])))[:2]
    [before] = entry_of(run, "before-fault", first)
    [after] = entry_of(run, "after-steps", first)
    assert after.state == "ESTABLISHED" and after.backend == before.backend
    [reconnected] = entry_of(run, "end", second)
    assert reconnected.backend != before.backend
