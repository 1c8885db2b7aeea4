"""HAProxy as the director, on this host's kernel: a silently dead primary, and each client's wait
ended by HAProxy's limits, not by the client's kernel. The witnesses are HAProxy's own log (the
session it ended and how: its tcplog termination state) and the kernel's numbers for the server
leg (tests/kernel_facts.py), and tcpdump on each director for what it sent the client and when;
the clients' record and the page's "what ended each wait" must agree with them."""
from harness.measure import haproxy_log
from harness.measure.run_record import caught_connection_samples, first_fault
from harness.scenario import of_run
from harness.store import RunDir

from tests.control_plane_contract import check_changes
from tests.kernel_facts import RETRIES2, unsampled_leg_bounds
from tests.scenarios.conftest import cells
from tests.scenarios.haproxy_witness import clock_lost, closed_on_wire, sent_to

OBSERVE_S = 20
# How much later than the director's FIN or RST on the wire its client may record the error: the
# close's delivery and the probe's wakeup on a busy machine
DELIVERY_S = 0.5
TIMEOUT_SERVER_S = 10


def ended_session(run, director, t_fault):
    """The session HAProxy ended on `director` that was open at the fault (one client per variant)."""
    open_at_fault = [s for s in haproxy_log.sessions(run.read(run.service_log(director)))
                     if s.accepted_t < t_fault < s.ended_t]
    assert len(open_at_fault) == 1, (director, open_at_fault)
    return open_at_fault[0]


def test_haproxy_ends_each_wait_by_its_own_limits_and_the_clients_kernel_settings_do_nothing(run_scenario):
    summary, path = run_scenario("haproxy-failover", warmup_s=5, observe_s=OBSERVE_S)
    check_changes(path)             # the haproxy control plane's contract (tests/control_plane_contract.py)
    run = RunDir(path)
    fault, by_name = first_fault(run.events()), cells(summary)
    lead = of_run(run).probe.interval_ms / 1000 + fault["uncertainty_s"]

    def error_at(cell):
        probe = by_name[cell]["probe"]
        assert probe["error"] == "MYSQL_2013", (cell, probe)
        return fault["t"] + probe["detect_s"]

    # on-marked-down shutdown-sessions: HAProxy killed the session when it marked the server down (D)
    shut = ended_session(run, "director-shutdown", fault["t"])
    down = [c for c in haproxy_log.state_changes(run.read(run.service_log("director-shutdown"))) if c.state == "DOWN"]
    shut_t = closed_on_wire(run, "director-shutdown", shut)
    assert shut.termination[0] == "D" and down and abs(shut_t - down[0].t) < DELIVERY_S
    assert -0.01 <= error_at("r15-shutdown") - shut_t <= DELIVERY_S
    # on the wire: a FIN. With option nolinger a FIN too (not a RST alone), and a RST behind it only
    # when HAProxy closed its socket before the client's own FIN came back: a race, both seen here
    assert sent_to(run, "director-shutdown", by_name["r15-shutdown"]) == ["F."]
    nolinger = sent_to(run, "director-nolinger", by_name["r15-nolinger"])
    assert nolinger[0] == "F." and all("R" in flags for flags in nolinger[1:]), nolinger
    assert by_name["r15-nolinger"]["proxy"]["client_got"] == ("FIN then RST" if nolinger[1:] else "FIN")

    # timeout server: the server side was silent that long (s: the server-side timeout)
    timed = ended_session(run, "director-tserver", fault["t"])
    assert timed.termination == "sD"
    timed_t = closed_on_wire(run, "director-tserver", timed)
    # HAProxy times it on its own clock, which a stall of the process sets back (haproxy_witness):
    # the wire may see the close later than the fault's stamp + 10 s by as much as that clock lost
    lost = clock_lost(timed, timed_t)
    assert TIMEOUT_SERVER_S - lead <= timed_t - fault["t"] <= TIMEOUT_SERVER_S + lead + DELIVERY_S + lost, (
        timed_t - fault["t"], lost)
    assert -0.01 <= error_at("r15-tserver") - timed_t <= DELIVERY_S

    # the proxy host's tcp_retries2=5: its kernel gave up on the server leg (S: a server-side error)
    leg = ended_session(run, "director-serverleg", fault["t"])
    assert leg.termination == "SD"
    leg_t = closed_on_wire(run, "director-serverleg", leg)
    assert any(low <= leg_t - fault["t"] <= high for low, high in unsampled_leg_bounds(5, lead)), (
        leg_t - fault["t"], unsampled_leg_bounds(5, lead))
    assert -0.01 <= error_at("r15-serverleg") - leg_t <= DELIVERY_S
    # tcp-ut 5 s on a server line: HAProxy 2.6.12 accepts it (haproxy -c), but its session to the dead
    # server stayed open, like the defaults' (found by this scenario: the model does not count it)
    assert not [s for s in haproxy_log.sessions(run.read(run.service_log("director-serverut")))
                if s.accepted_t < fault["t"] < s.ended_t], "tcp-ut on the server leg ended a session"
    assert by_name["r15-serverut"]["probe"]["detect_s"] is None
    for name, session in (("r15-tserver", timed), ("r15-serverleg", leg)):
        part = by_name[name]["proxy"]
        assert part["termination"] == session.termination and part["client_got"] == "FIN", (name, part)

    # The client's own cures: alone against a dead peer its kernel gives up within RETRIES2[5] or
    # 3 s + an RTO; through HAProxy its kernel never retransmits (ss: the socket's retransmission
    # count stays where it was, through the whole observation; a sample may still catch a request's
    # RTO timer armed before HAProxy's ACK), and no operation failed.
    assert RETRIES2[5][2] < OBSERVE_S
    ran = {cell.name: cell for cell in of_run(run).cells}
    for name in ("r15", "r15-ut3000", "r5"):
        probe = by_name[name]["probe"]
        assert probe["detect_s"] is None and probe["error"] is None, (name, probe)
        samples = caught_connection_samples(run, ran[name], run.read(run.probe_log(name)), fault["t"])
        after = [sample for sample in samples if sample.t > fault["t"]]
        assert after and after[-1].t > fault["t"] + OBSERVE_S / 2, name
        assert {sample.retrans_total for sample in after} == {samples[0].retrans_total}, (name, after)
        assert sent_to(run, "director", by_name[name]) == [], name
    # A read timeout in the client still works: HAProxy cannot hide an answer that never comes.
    assert 5 <= by_name["r15-rt5"]["probe"]["stall_s"] <= 5 + DELIVERY_S
