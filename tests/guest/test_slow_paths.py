"""Slow paths in a guest kernel (sch_plug, ifb, sch_netem), one lab: the primary's receive path
held for 0.6 s every 4 s (rx_stall), then its link 150 ms slower (slow_link). Bounds from
outside the harness: the stall and the delay the steps ask for, the initial SYN RTO of 1 s
(docs/facts/production.md: a SYN held for less is never resent), and that neither a plug queue nor
a delay drops anything, so no connect and no query may fail."""
import pytest

from harness.measure import probe_log
from harness.signals.connect import ConnectLatency, connect_log, stall_log

pytestmark = pytest.mark.guest
STALL_S, EVERY_S = 0.6, 4.0
DELAY_S = 0.15
INITIAL_SYN_RTO_S = 1.0


def fault_window(run, name):
    """(when the fault had surely landed, when its heal began, when the heal was done)."""
    events = [e for e in run.events() if e.get("source") == "harness" and e.get("name") == name]
    injected = next(e for e in events if e["event"] == "fault")
    healed = next(e for e in events if e["event"] == "heal")
    return injected["t"] + injected["uncertainty_s"], healed["started_t"], healed["t"]


def qdisc_changes(run):
    """(start, end) of each step that put a queueing discipline on or took it off: a packet queued
    in the old one at that moment may be dropped with it."""
    return [(e["started_t"], e.get("done_t", e["t"])) for e in run.events()
            if e.get("source") == "harness" and e["event"] in ("fault", "heal") and e.get("started_t")]


def test_stalls_show_in_the_tail_a_slow_link_in_every_answer_and_nothing_is_lost(run_in_guest):
    steps = [{"fault": "rx_stall", "target": "db-primary", "stall": STALL_S, "every": EVERY_S}, {"wait": "17s"},
             {"heal": "rx_stall"}, {"wait": "3s"},
             {"fault": "slow_link", "node": "db-primary", "delay": DELAY_S}, {"wait": "6s"},
             {"heal": "slow_link"}, {"wait": "3s"}]
    summary, run = run_in_guest("rx-stall", warmup_s=5, steps=steps, observe_s=30)
    periods = stall_log.stalls(run.read(run.service_log("db-primary")))
    assert len(periods) >= 3 and all(end - start >= STALL_S for start, end in periods), periods
    connects, _ = connect_log.parse(run.read(ConnectLatency.file(run, "log")))
    assert connects and all(c.ok for c in connects), [c for c in connects if not c.ok][:3]
    _, stalled_to, unstalled = fault_window(run, "rx_stall")
    # neither the plug queue nor netem (drained before it goes) drops a SYN or a SYN-ACK: a SYN
    # is resent only where a stall held it (a busy TCG guest once stretched two 0.6 s holds past
    # the 1 s initial RTO) or while a qdisc was put on or taken off (what it held goes with it: a
    # connect begun during rx_stall's heal was resent), and every connect succeeded (above)
    met = [c for c in connects if stall_log.overlaps(c.t0, c.t0 + c.seconds, periods)]
    changing = qdisc_changes(run)
    resent = [c for c in connects if c.syn_retrans and c not in met
              and not stall_log.overlaps(c.t0, c.t0 + c.seconds, changing)]
    assert not resent, f"a SYN neither a stall nor a qdisc change held was resent: {resent[:3]}"
    # the slowest connect that met a stall waited in the plugged queue, for about a stall, and was
    # answered by its first SYN (the kernel's own count) unless a stall it met outlasted the initial
    # RTO. Its time is not held under 1 s: the probe's own loop notices an answer late on a busy
    # guest (CI 2026-12-04: 1.056 s with no SYN resent). (Not "the slowest of all": a TCG guest once
    # held a warm-up connect 0.61 s.)
    slowest = max((c for c in met if c.t0 < stalled_to), key=lambda c: c.seconds)
    held_s = max(end - start for start, end in periods
                 if stall_log.overlaps(slowest.t0, slowest.t0 + slowest.seconds, [(start, end)]))
    assert STALL_S / 2 <= slowest.seconds, slowest
    assert slowest.syn_retrans == 0 or held_s >= INITIAL_SYN_RTO_S, (slowest, held_s)
    assert not [c for c in connects if c.t0 > unstalled and c in met]
    [cell] = summary["cells"]
    assert cell["probe"]["detect_s"] is None
    # the slow link: every connect and every query that went out while it lasted waited the delay
    # once (the primary's SYN-ACK, its answer), and none failed
    slow_from, slow_to, _ = fault_window(run, "slow_link")
    slow_connects = [c for c in connects if slow_from <= c.t0 and c.t0 + c.seconds < slow_to]
    queries = [op for op in probe_log.parse(run.read(run.probe_log(cell["cell"])))
               if slow_from <= op["t0"] and op["t1"] < slow_to]
    assert slow_connects and all(c.seconds >= DELAY_S for c in slow_connects)
    assert queries and all(op["ok"] and op["t1"] - op["t0"] >= DELAY_S for op in queries)
    part = summary["signals"]["connect"]
    print(f"connect p50 {part['phases']['before']['p50']} -> {part['phases']['during']['p50']} ms, p99.9 "
          f"{part['phases']['before']['p99_9']} -> {part['phases']['during']['p99_9']} ms; stalls {part['stalls']}; "
          f"slow link: {len(slow_connects)} connects, {len(queries)} queries")
