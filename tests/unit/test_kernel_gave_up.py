"""When the client's kernel gave up on a blackholed connection, by ss's account (measure/
kernel_gave_up.py), and a cell late by its client's report but not by its kernel said so beside its
verdict (signals/retransmissions/lateness.py). The ladder below is tcp_retries2=5 at a 208 ms RTO: the sixth timer
(backoff 5, RTO 6.656 s) is due 13.9 s after the send, which the kernel's own table puts at ~13 s
+ the send (docs/facts/kernel.md)."""
import json

from harness import report
from harness.measure import ss_log
from harness.signals.retransmissions import kernel_gave_up
from tests.unit.test_render import T, write_run

PORT = 41570


def rung(t, left, backoff, port=PORT, read_after=0.1):
    return (f"@ {t}\nESTAB 0 70 10.213.1.20:{port} 10.213.1.10:3306 timer:(on,{left},{backoff})\n"
            f"\t rto:{208 * 2 ** backoff} backoff:{backoff}\n@. {t + read_after}\n")


def other(t, read_after=0.1):
    """A read of the namespace that shows another socket only (the blackholed one is gone)."""
    return f"@ {t}\nESTAB 0 0 10.213.1.20:50000 10.213.1.10:3306 timer:(keepalive,119min,0)\n\t rto:204\n@. {t + read_after}\n"


def ladder_text(next_read_at):
    return rung(T + 11.1, "2.656ms", 5) + rung(T + 12.98, "880ms", 5) + rung(T + 13.76, "92ms", 5) + other(next_read_at)


def bracket(text):
    samples = ss_log.parse(text)
    mine = [s for s in samples if s.local_port == PORT]
    return kernel_gave_up.ended_bracket(mine, [s.t for s in samples], 250)


def test_the_last_timer_ends_the_connection_when_ss_reads_on_before_the_next_would_be_due():
    earliest, latest = bracket(ladder_text(T + 15.7))       # gone 1.9 s after: the next timer was 13.3 s away
    # no sooner than 12.98 + 0.880 (the second read's stamp plus what it said was left), no later
    # than 11.2 + 2.656 (the first read's closing stamp plus what it said): narrowed to 13.86. That
    # is the expiry the timer was armed for; a 6.656 s timer sits on the wheel's level of 64-jiffy
    # slots, so it fired by 0.256 s after it
    assert (round(earliest - T, 3), round(latest - T, 3)) == (13.86, 14.116)


def test_no_end_is_claimed_when_ss_stood_still_past_the_next_timer_or_saw_none():
    assert bracket(ladder_text(T + 30.0)) is None            # a later rung (due at ~27.2 s) could have come and gone
    assert bracket(other(T + 1.0)) is None
    assert bracket(rung(T + 1.0, "92ms", 1) + f"@ {T + 1.5}\nESTAB 0 0 10.213.1.20:{PORT} 10.213.1.10:3306\n"
                   f"\t rto:204\n@. {T + 1.6}\n") is None    # acknowledged at last: the kernel never gave up


def test_a_client_that_ended_the_wait_itself_has_no_kernel_entry():
    found = (T + 13.852, T + 13.952)
    assert kernel_gave_up.part(found, T, 3.0, lambda e, l: True) is None
    assert kernel_gave_up.part(found, T, 15.45, lambda e, l: e < 14.4) == {
        "gave_up_s": [13.852, 13.952], "in_window": True, "reported_after_s": 1.498}


def test_a_cell_late_by_its_report_but_not_by_its_kernel_says_so(tmp_path):
    run = write_run(tmp_path)
    ops = [json.loads(line) for line in run.probe_log("r5").read_text().splitlines()]
    ops[-2]["t1"], ops[-1]["t0"], ops[-1]["t1"] = T + 15.45, T + 15.5, T + 15.52
    ops.insert(0, {"connected": T - 5, "conn": 1, "local_port": PORT})
    run.write_text(run.probe_log("r5"), "".join(json.dumps(op) + "\n" for op in ops))
    run.write_text(run.ss_samples("r5"), ladder_text(T + 15.7))
    summary = report.render(run)
    [cell] = summary.written["cells"]
    assert cell["probe"]["within_window"] is False and cell["kernel"]["in_window"] is True
    assert cell["kernel"]["gave_up_s"] == [13.86, 14.116]
    text = run.summary_md.read_text()
    assert cell["report"] == {"runtime": "Python", "reported_after_s": 1.334, "runtime_lag_s": None, "lag_from": None,
                              "verdict": "unknown"}
    assert ("NO, 1.22 s after the window (its kernel gave up in time, at 14.1 s; reported 1.3 s after it; the Python's report lag unknown (no read-timeout "
            "cell of it ran))") in text
    assert "Reported late, ended in time (r5 +1.3 s)" in text and "Reported late" in run.page.read_text()


def test_a_socket_with_a_user_timeout_claims_no_end_from_the_last_timer_ss_saw():
    # its last timer is armed for what is left of U: shorter than the doubled RTO, maybe unseen
    samples = [s for s in ss_log.parse(ladder_text(T + 15.7)) if s.local_port == PORT]
    assert kernel_gave_up.ended_bracket(samples, [T + 15.7], 250, user_timeout_ms=0) is not None
    assert kernel_gave_up.ended_bracket(samples, [T + 15.7], 250, user_timeout_ms=15000) is None
