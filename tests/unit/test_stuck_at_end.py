"""A client stuck at the run's end has not recovered (harness/measure/recovery.py)."""
import pytest


def test_a_client_stuck_at_the_runs_end_has_not_recovered_whatever_the_old_server_answered_first():
    """A replay in a busy guest (2026-12-03): the death landed ~3 s after the fault's stamp; the
    Hikari cell's probe, slow across the stamp (1.09 s), went on being answered by the old primary
    until 2.93 s, then hung for the rest of the 160 s run. Read as recovered at 0.012 s, the replay
    said 'your clients hung 0.0 s'."""
    from harness.measure.recovery import probe_outcome
    t = 1000.0
    ops = [{"t0": t - 1.2, "t1": t - 1.1, "ok": True, "server": "p", "conn": 2},
           {"t0": t - 1.077, "t1": t + 0.012, "ok": True, "server": "p", "conn": 2},
           {"t0": t + 0.234, "t1": t + 0.524, "ok": True, "server": "p", "conn": 2},
           {"t0": t + 2.839, "t1": t + 2.928, "ok": True, "server": "p", "conn": 2}]
    stuck = probe_outcome(ops, t, observed_s=160.0)
    assert stuck.recover_s is None and stuck.detect_s is None and stuck.stall_s == pytest.approx(157.072)
    assert stuck.disrupted
    # without the observation's end (the live view) it is read as before; a client answering to the
    # end was only slow across the stamp
    assert probe_outcome(ops, t).recover_s == 0.012
    going = ops + [{"t0": t + 158.0, "t1": t + 158.1, "ok": True, "server": "p", "conn": 2}]
    assert probe_outcome(going, t, observed_s=160.0).recover_s == 0.012
    # a client with no operation ended after the fault is stuck too, not a survivor
    assert probe_outcome(ops[:1], t, observed_s=160.0).disrupted
