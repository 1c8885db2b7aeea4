"""The terminal view reads the clients' files as they grow and calls out detect and recovery."""
import io
import json

from harness.run.live import CellView, LiveView


def test_the_view_announces_detection_and_recovery_once_and_knows_when_all_recovered(tmp_path):
    probe_file = tmp_path / "probe.jsonl"
    probe_file.write_text(json.dumps({"t0": 99.0, "t1": 99.01, "ok": True, "server": "a"}) + "\n")
    out = io.StringIO()
    view = LiveView([CellView("r5", probe_file, None)], out=out)
    view.started = 90.0
    view.fault_started(100.0, observe_s=60)
    view.tick(101.0)
    assert not view.all_recovered()
    with open(probe_file, "a") as f:
        f.write(json.dumps({"t0": 100.1, "t1": 113.4, "ok": False, "error": "ETIMEDOUT"}) + "\n")
        f.write(json.dumps({"t0": 113.5, "t1": 113.6, "ok": True, "server": "b"}) + "\n")
        f.write('{"t0": 113.7, "t1"')                           # a line still being written
    view.tick(114.0)
    view.tick(115.0)
    text = out.getvalue()
    assert text.count("r5: first error ETIMEDOUT 13.40 s after the fault") == 1
    assert text.count("r5: recovered 13.60 s after the fault (now on b)") == 1
    assert "limit in   45s" in text
    assert view.all_recovered()


def test_a_sysbench_that_died_in_the_blackhole_is_not_waited_for(tmp_path):
    """sysbench's PostgreSQL driver died by SIGSEGV 10 s into a blackhole and a run waited out its
    1,100 s limit for a recovery that could not come."""
    probe_file, sysbench_file = tmp_path / "probe.jsonl", tmp_path / "sysbench.log"
    probe_file.write_text("".join(json.dumps(op) + "\n" for op in (
        {"t0": 99.0, "t1": 99.01, "ok": True, "server": "a"}, {"t0": 100.1, "t1": 113.4, "ok": False, "error": "X"},
        {"t0": 113.5, "t1": 113.6, "ok": True, "server": "b"})))
    sysbench_file.write_text("".join(f"{99.5 + second:.1f} [ {second}s ] thds: 1 tps: {tps} qps: 0.00 (r/w/o: 0/0/0) "
                                     "lat (ms,95%): 30.00 err/s: 0.00 reconn/s: 0.00\n"
                                     for second, tps in ((1, "40.00"), (2, "0.00"))))
    out = io.StringIO()
    view = LiveView([CellView("r5", probe_file, sysbench_file)], out=out, clock=lambda: 120.0)
    view.started = 90.0
    view.fault_started(100.4, observe_s=1100)
    view.tick(120.0)
    assert view.cells[0].sysbench_outcome.disrupted and not view.all_recovered()
    view.loads_ended({"r5": ("sysbench", "exited -11"), "r6": ("client", "exited 1")})
    view.loads_ended({"r5": ("sysbench", "exited -11")})
    assert view.all_recovered()
    assert out.getvalue().count("r5: its sysbench exited -11: not waited for") == 1


def test_a_client_that_exited_is_not_waited_for(tmp_path):
    probe_file = tmp_path / "probe.jsonl"
    probe_file.write_text(json.dumps({"t0": 99.0, "t1": 99.01, "ok": True, "server": "a"}) + "\n")
    view = LiveView([CellView("r5", probe_file, None)], out=io.StringIO(), clock=lambda: 110.0)
    view.fault_started(100.0, observe_s=60)
    view.tick(110.0)
    assert not view.all_recovered()
    view.loads_ended({"r5": ("client", "exited 1")})
    assert view.all_recovered()


def test_a_cell_not_waited_for_does_not_hold_the_observation_and_none_waited_for_never_ends_it(tmp_path):
    """A replay's own cell, which the model says outlasts the run, must not keep it watching once
    every cure is back; a view with no cell waited for leaves the end to the limit."""
    back, hung = tmp_path / "back.jsonl", tmp_path / "hung.jsonl"
    back.write_text("".join(json.dumps(op) + "\n" for op in (
        {"t0": 99.0, "t1": 99.01, "ok": True, "server": "a"}, {"t0": 100.1, "t1": 103.1, "ok": False, "error": "X"},
        {"t0": 103.2, "t1": 103.3, "ok": True, "server": "b"})))
    hung.write_text(json.dumps({"t0": 99.0, "t1": 99.01, "ok": True, "server": "a"}) + "\n")
    for waited_for, ends in ((True, False), (False, True)):
        view = LiveView([CellView("cure", back, None), CellView("yours", hung, None, waited_for=waited_for)],
                        out=io.StringIO())
        view.started = 90.0
        view.fault_started(100.0, observe_s=160)
        view.tick(104.0)
        assert view.all_recovered() is ends
    alone = LiveView([CellView("yours", hung, None, waited_for=False)], out=io.StringIO())
    alone.fault_started(100.0, observe_s=160)
    alone.tick(104.0)
    assert not alone.all_recovered()
