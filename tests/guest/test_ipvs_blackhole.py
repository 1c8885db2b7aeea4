"""In a guest kernel that has IPVS: the seed's blackhole through the real ipvsadm director."""
import pytest

from tests.flow_witness import assert_blackholed_flow_kept_and_reconnection_elsewhere
from tests.kernel_facts import blackhole_bounds
from tests.kernel_witness import assert_reported_what_the_kernel_ended, first_failure

pytestmark = pytest.mark.guest
PROBE_WRITE_S = 0.05


def test_the_seed_blackhole_through_real_ipvs(run_in_guest, guest):
    summary, run = run_in_guest("lvs-switchover", TCP_RETRIES2="5", warmup_s=5)
    [cell] = summary["cells"]
    env = run.env()
    assert env["datapath"] == "ipvs" and env["where"]["where"] == "guest"
    assert env["kernel"] == guest.kernel_release() and env["director"]["ipvs_expire_nodest_conn"] == 0
    probe, t_fault = cell["probe"], summary["fault"]["t"]
    # docs/facts/kernel.md (tcp_retries2=5: 12.8-13.5 s after the first unacknowledged send), its ladder
    # scaled to the RTO the guest's kernel reported (docs/facts/guest.md: 204-216 ms under TCG), counted
    # from the blackholed query's own send (the probe writes it right after stamping t0), by the
    # kernel's own timer (ss) and by what the probe reported. How late after the fault the probe
    # sent it is the machine's business (CI's busy guest: 14.28 s from the fault once), printed.
    op = first_failure(run, cell, t_fault)
    assert op["t1"] - t_fault == pytest.approx(probe["detect_s"], abs=0.001)
    assert_reported_what_the_kernel_ended(
        run, cell, op, blackhole_bounds(5, PROBE_WRITE_S, cell["predicted"]["base_rto_s"]), op["t0"])
    print(f"sent {op['t0'] - t_fault:+.3f} s after the fault, error {op['t1'] - op['t0']:.3f} s after the send; "
          f"the model's window {cell['predicted']['earliest_s']:.2f}-{cell['predicted']['latest_s']:.2f} s: "
          f"{'in' if probe['within_window'] else 'out'}")
    assert probe["error"] == "MYSQL_2013" and probe["server_after"] == "db-replica"
    # The director's own table: the blackholed connection's entry outlives the swap, still
    # pointing at the removed primary, while the reconnection lands elsewhere.
    assert_blackholed_flow_kept_and_reconnection_elsewhere(run, cell["cell"])
