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
