"""The kernel's own account of a blackholed connection (ss, sampled twice a second in the client's
container), as a witness beside what the client reported: when its last retransmission timer was due."""
from harness import scenario
from harness.measure import director_flows, probe_log, ss_log
from harness.measure.run_record import caught_connection_samples
from tests.kernel_facts import RTO_MAX_S, assert_meets, assert_within, wheel_slot_s

SAMPLER_GAP_S = 1.5           # ss samples every 0.5 s: none for this long after a timer is a stall


def cell_of(run, cell_name):
    return next(c for c in scenario.of_run(run).cells if c.name == cell_name)


def answer_lost_in_flight(run, cell_name, t_fault, until_t=None):
    """The cell's first connection still there 2 s after the fault with no retransmission timer
    ever on (ss): the removed backend had ACKed the request in flight, its answer was dropped with
    the flow's entry (IPVS semantics, tests/lab/answer_in_flight.py), and neither the kernel's
    retransmissions nor a director's reset, which meets only what a client sends, can end the
    wait. Seen in make test runs under three labs (the old backend slow to answer). until_t: look no
    further (a healed partition: the connection's traffic goes on after it)."""
    samples = caught_connection_samples(run, cell_of(run, cell_name), run.read(run.probe_log(cell_name)), t_fault)
    return ss_log.nothing_unacked_after(samples, t_fault, until=until_t)


def kernel_ended(run, cell, conn, after_t):
    """port_ended for the probe's connection number conn."""
    log = run.read(run.probe_log(cell["cell"]))
    port = next(r["local_port"] for r in probe_log.records(log) if r.get("connected") and r["conn"] == conn)
    return port_ended(run, cell["cell"], port, after_t)


def port_ended(run, cell_name, port, after_t):
    """(earliest, latest, RTO s, seen, base RTO s): when the kernel's last retransmission timer on the
    connection from local port `port` in the cell's namespace was due, by the kernel's own account
    (ss_log.retransmit_due_bracket over the samples of that timer; either end None when the samples
    do not say), the RTO then, and whether the sampler was running when that timer came due. If it
    was, a later rung would have shown: that timer was the last. If it stood still then (a busy
    machine once stopped it for 9 s), the ladder's end went unseen. ss samples every socket of the
    namespace: a pool's server leg in the client's container too."""
    by_port = ss_log.by_port(run.ss_samples(cell_of(run, cell_name).namespace))
    # A reconnect that took the port again after this connection ended starts from SYN-SENT: its
    # resent SYNs are not this connection's (a busy zoo's node client took libmariadb's old port).
    samples = [s for s in ss_log.first_connection(by_port.get(port, [])) if s.t > after_t]
    earliest, latest = ss_log.retransmit_due_bracket(samples)
    assert (earliest, latest) != (None, None), f"{cell_name}: ss never saw the connection from port {port} retransmitting"
    last = [s for s in samples if s.timer.startswith("on,")][-1]
    due_t = earliest if earliest is not None else latest
    seen = earliest is not None and any(due_t <= s.t <= due_t + SAMPLER_GAP_S for others in by_port.values() for s in others)
    return earliest, latest, last.rto_ms / 1000, seen, ss_log.base_rto_s(samples, after_t)


def first_failure(run, cell, t_fault):
    return next(op for op in probe_log.parse(run.read(run.probe_log(cell["cell"])))
                if not op["ok"] and op["t1"] > t_fault)


def assert_reported_what_the_kernel_ended(run, cell, op, kernel_window, sent_t):
    """The kernel ended op's connection inside kernel_window (s after sent_t) by its own timer, and
    the client reported that error (assert_reported_after_the_kernel). kernel_window may be a
    function of the base RTO the kernel used on that connection (ss): a pool's connections each have
    their own (a zoo run: one pooled connection of a cell at 204 ms ended 13.39 s after its send,
    where the cell's caught connection's 216 ms put the rules' soonest at 13.82 s)."""
    ended = kernel_ended(run, cell, op["conn"], sent_t)
    assert_reported_after_the_kernel(cell["cell"], ended, op["t1"], kernel_window, sent_t)


def assert_reported_after_the_kernel(who, ended, reported_t, kernel_window, sent_t):
    """ended: port_ended's account of a connection. The kernel ended it inside kernel_window (s after
    sent_t) by its own timer, and `who` reported that error at reported_t: not before the timer can
    have been due, and before the kernel's next timer on it would have been (the RTO doubled), so it
    was that error and no later event. Where the timer was due is known to the bracket ss's stamps
    give (ss_log), and the bracket must meet the window."""
    earliest, latest, rto_s, seen, base_rto_s = ended
    if callable(kernel_window):
        kernel_window = kernel_window(base_rto_s)
    if not seen:
        # the report then: the kernel's window, and at most one doubled RTO to report it
        print(f"{who}: ss stood still when the last timer seen came due (bracket {earliest}, {latest})")
        low, high = kernel_window[-1] if isinstance(kernel_window, list) else kernel_window
        assert_within(reported_t - sent_t, (low, high + min(2 * rto_s, RTO_MAX_S)), f"{who}: reported")
        return
    latest = latest if latest is not None else earliest
    fired_by = latest + wheel_slot_s(rto_s)         # ss shows the expiry; the wheel fires within a slot of it
    assert_meets((earliest - sent_t, fired_by - sent_t), kernel_window, f"{who}: the kernel's timer (ss)")
    assert earliest <= reported_t <= latest + min(2 * rto_s, RTO_MAX_S), (
        f"{who}: reported {reported_t - earliest:+.3f} s after the kernel's timer could first have been due, "
        f"next due in {2 * rto_s} s")
    print(f"{who}: reported {reported_t - latest:.3f}-{reported_t - earliest:.3f} s after the kernel's timer was due "
          f"(ss's bracket {latest - earliest:.3f} s)")


def reconnects_held_by_the_director(run, namespace):
    """Local addresses in a client namespace still sending SYNs at the end of the run (ss's last
    sample) that the director's own table at the end of the run sent to the server the clients
    used before the fault: reconnects that took a port whose blackholed flow the director kept."""
    flows_before = director_flows.parse_table(run.read(run.director_flows("before-fault")))
    old_servers = {f.backend for f in flows_before}
    assert len(old_servers) == 1, f"the clients used {old_servers} before the fault"
    kept = {f.client for f in director_flows.parse_table(run.read(run.director_flows("end")))
            if f.backend in old_servers}
    samples = ss_log.parse(run.read(run.ss_samples(namespace)))
    end = max(s.t for s in samples)
    return {s.local for s in samples if s.t == end and s.state == "SYN-SENT"} & kept
