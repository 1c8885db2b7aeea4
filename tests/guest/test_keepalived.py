"""keepalived as the director's control plane, in a guest kernel with IPVS: nobody swaps the
director; keepalived notices the primary's silent death by its own checks, takes it out and
promotes the replica (its notify_down hook), and each client's outage splits into "LB noticed"
and "client noticed". Bounds from docs/facts/production.md (keepalived's worst case) and
docs/facts/kernel.md (the retransmission ladder), not from the harness's model."""
import subprocess

import pytest

from tests.control_plane_contract import check_changes
from tests.kernel_facts import (REPORT_LAG_GUEST_S, WHEEL_SLACK, assert_error_within, blackhole_bounds,
                                user_timeout_bounds)
from tests.scenarios.conftest import cells

pytestmark = pytest.mark.guest

DELAY_LOOP, CONNECT_TIMEOUT, RETRY, DELAY_BEFORE_RETRY = 2, 1, 1, 1
# docs/facts/production.md: a silent host is taken out delay_loop + (retry+1)*connect_timeout +
# retry*delay_before_retry after its death at the latest; the acceptance allows 1 s either way.
WORST_S = DELAY_LOOP + (RETRY + 1) * CONNECT_TIMEOUT + RETRY * DELAY_BEFORE_RETRY
BEST_S = (RETRY + 1) * CONNECT_TIMEOUT + RETRY * DELAY_BEFORE_RETRY


def test_keepalived_takes_a_silently_dead_primary_out_and_each_client_follows(run_in_guest):
    summary, run = run_in_guest("keepalived-failover", warmup_s=5)
    check_changes(run.path)                       # the control plane's contract
    env, by_name = run.env(), cells(summary)
    assert env["control_plane"] == "keepalived" and env["datapath"] == "ipvs"
    # the control plane's and the datapath's tools, as they printed their own versions
    assert env["versions"]["keepalived"].startswith("Keepalived v2."), env["versions"]
    assert env["versions"]["ipvsadm"].startswith("ipvsadm v1."), env["versions"]
    # the place under the lab: this machine's QEMU as it prints its own version, and the kernel
    # package whose release the guest's own uname reported
    qemu = subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    assert qemu.split()[3] in env["versions"]["qemu"], (qemu, env["versions"]["qemu"])
    assert env["kernel"].split("-amd64")[0].split("+")[0] in env["versions"]["kernel package"].replace("linux-image-", ""), \
        (env["kernel"], env["versions"]["kernel package"])
    assert env["directors"]["director-reset"]["ipvs_expire_nodest_conn"] == 1
    assert env["director"]["ipvs_expire_nodest_conn"] == 0
    lead = 0.1 + summary["fault"]["uncertainty_s"]
    for cell in by_name.values():
        lb, probe = cell["lb"], cell["probe"]
        # counted from the fault step's stamp: the death landed up to its uncertainty later (a busy
        # guest's exec), and the LB noticed that much less after it
        assert BEST_S - 1 <= lb["noticed_by_s"] and lb["noticed_s"] <= WORST_S + 1 + summary["fault"]["uncertainty_s"], \
            (cell["cell"], lb, summary["fault"]["uncertainty_s"])
        assert probe["server_after"] == "db-replica", cell
    # promoted by keepalived's notify_down hook: the replica acknowledged the writer's writes
    data = summary["signals"]["data"]
    assert data["new_primary"] == "db-replica" and data["old_primary"] == "db-primary", data
    # deleted with expire_nodest_conn=0, or kept at weight 0: the blackhole, the kernel's budget from the death
    for name in ("r5", "r5-inhibit"):
        cell = by_name[name]
        assert_error_within(cell, blackhole_bounds(5, lead, cell["predicted"]["base_rto_s"]), name, REPORT_LAG_GUEST_S)
        assert cell["lb"]["change"].startswith("weight 0" if name == "r5-inhibit" else "removed")
    # deleted with expire_nodest_conn=1: reset by the first retransmission after the removal. The RTO
    # doubles from the first retransmission, so the next one after t comes by 2t (+ the wheel's slack).
    reset = by_name["r5-reset"]
    detect, removed_by = reset["probe"]["detect_s"], reset["lb"]["noticed_by_s"]
    assert reset["lb"]["noticed_s"] <= detect <= (2 * removed_by) * (1 + WHEEL_SLACK) + lead, reset
    assert reset["probe"]["error"] == "MYSQL_2013"
    # TCP_USER_TIMEOUT 3 s: the client gives up around when keepalived notices (before or after,
    # by the phase of its checks); if before, its reconnection lands on the dead primary until then.
    # No client is back before keepalived took the dead primary out.
    ut = by_name["r5-ut3000"]
    assert_error_within(ut, user_timeout_bounds(3.0, lead), "r5-ut3000", REPORT_LAG_GUEST_S)
    for cell in by_name.values():
        assert cell["probe"]["recover_s"] >= cell["lb"]["noticed_s"], cell
