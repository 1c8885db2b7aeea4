"""Each director fault means the same on real IPVS as on the nftables datapath, checked against
the director's own table and log (make test-kernel; one guest boot for all of them)."""
import json
import re

import pytest

from harness.director.commands import LbCommands
from harness.director import Director
from harness.errors import LabError
from harness.lab import ClientCell, ComposeLab, LabRequest
from harness.measure import director_flows, probe_log, ss_log
from harness.signals.director_flows import DirectorFlows
from tests.guest.conftest import PROJECT
from tests.flow_witness import client_address
from tests.lab import answer_in_flight

pytestmark = pytest.mark.kernel


def first_port(run, cell):
    return probe_log.local_ports(run.read(run.probe_log(cell)))[0]


def samples_of(run, cell, t_fault):
    """[(seconds after the fault, [Flow])] of the cell's first connection in the director's sampled table."""
    address, port = client_address(run, cell), first_port(run, cell)
    return [(t - t_fault, director_flows.of_client(flows, address, port))
            for t, flows in director_flows.parse_samples(run.read(DirectorFlows.file(run, "samples")))]


def test_nodest_reset_comes_from_ipvs_itself(run_in_guest):
    summary, run = run_in_guest("nodest-reset", warmup_s=8)
    [cell] = summary["cells"]
    assert run.env()["director"]["ipvs_expire_nodest_conn"] == 1
    assert cell["probe"]["error"] == "MYSQL_2013" and cell["probe"]["detect_s"] < 1.0
    port = first_port(run, cell["cell"])
    flows_after = director_flows.parse_table(run.read(run.director_flows("after-steps")))
    assert director_flows.of_client(flows_after, client_address(run, cell["cell"]), port) == [], \
        "IPVS kept the removed server's entry"


def test_connection_drain_serves_old_flows_then_resets_them(run_in_guest):
    summary, run = run_in_guest("connection-drain", warmup_s=8)
    [cell] = summary["cells"]
    t_fault = summary["fault"]["t"]
    ops = probe_log.parse(run.read(run.probe_log(cell["cell"])))
    during = [op for op in ops if t_fault < op["t1"] < t_fault + 4.9]
    assert during and {op["server"] for op in during if op["ok"]} == {"db-primary"}, "drained flow moved early"
    assert all(op["ok"] for op in during), "the drained flow failed during the drain"
    # When the director itself says the drain ended (its `lbctl sync` report in its log).
    ends = [json.loads(m) for m in re.findall(r'(\{"applying_t".*?\})', run.read(run.service_log("director")))]
    drain_end = max(e["applied_t"] for e in ends) - t_fault
    assert 5.0 <= drain_end, "the director ended the drain early"
    assert cell["probe"]["error"] == "MYSQL_2013"
    assert 5.0 - 0.05 <= cell["probe"]["detect_s"] <= drain_end + 1.0, (cell["probe"], drain_end)
    held = [flows for after, flows in samples_of(run, cell["cell"], t_fault) if 0.5 < after < 4.5]
    assert held and all(f and f[0].state == "ESTABLISHED" for f in held), "the entry went during the drain"


def test_lb_idle_timeout_forgets_the_idle_flow_in_the_ipvs_table(run_in_guest):
    summary, run = run_in_guest("idle-timeout")
    by_name = {c["cell"]: c for c in summary["cells"]}
    t_fault = summary["fault"]["t"]
    forgotten, kept = by_name["r5-idle"], by_name["r5-ka5-1-3-idle"]
    assert forgotten["after_idle"]["error"] == "ECONNRESET" and kept["survived"]
    idle_end = forgotten["probe"]["detect_s"]
    gone = [after for after, flows in samples_of(run, "r5-idle", t_fault)
            if 0 < after < idle_end and not flows]
    assert gone, "IPVS still had the idle flow's entry when its client spoke again"
    assert min(gone) <= 20 + 2.5, "the entry outlived the 20 s idle timeout"     # one sample period late at most
    kept_samples = [flows for after, flows in samples_of(run, "r5-ka5-1-3-idle", t_fault)
                    if 0 < after < idle_end]
    assert kept_samples and all(kept_samples), "keepalive did not keep the entry"


def test_a_longer_round_trip_stretches_the_ladder(run_in_guest):
    summary, run = run_in_guest("link-delay")
    near, far = (next(c for c in summary["cells"] if c["cell"] == name) for name in ("r5", "r5-d50"))
    for cell in (near, far):
        assert cell["probe"]["within_window"], (cell["probe"], cell["predicted"])
    # ss's own view of the sockets (not the model): netem's 50 ms is in the far one's round trip.
    def least_rtt(namespace):
        return min(s.rtt_ms for s in ss_log.parse(run.read(run.ss_samples(namespace))) if s.rtt_ms)
    assert least_rtt("r5-d50") >= 50 > least_rtt("r5") + 20
    assert far["predicted"]["base_rto_s"] >= 0.25
    assert far["probe"]["detect_s"] > near["probe"]["detect_s"] + 1.0


def test_a_knob_the_kernel_lacks_is_refused_before_anything_starts(run_in_guest, guest):
    if guest.has_sysctl("/proc/sys/net/ipv4/tcp_rto_max_ms"):
        pytest.skip(f"{guest.kernel_release()} has tcp_rto_max_ms")
    with pytest.raises(LabError, match=r"tcp_rto_max_ms .* \(it came with Linux 6\.15\)"):
        run_in_guest("rto-max")


@pytest.mark.parametrize("nodest", ["drop", "reset"])
def test_a_request_in_flight_when_its_backend_is_removed(guest, nodest):
    """What real IPVS does with it (tests/lab/answer_in_flight.py); the nftables datapath is held
    to the same in tests/lab/test_director.py."""
    env = {"LB_EXPIRE_NODEST_CONN": "1" if nodest == "reset" else "0"}   # as ipvs_swap's lab_settings()
    lab = ComposeLab(LabRequest(project=f"{PROJECT}-in-flight", cells=[ClientCell("r15", (("net.ipv4.tcp_retries2", 15),))], datapath="ipvs", servers=("db-primary", "db-replica"), env=env), engine=guest)
    try:
        lab.up()
        assert Director(lab).state()["datapath"] == "ipvs"
        answer_in_flight.check(lab, LbCommands(lab), client="client-r15", nodest=nodest, server_sleep_s=25.0)
    finally:
        lab.down()
