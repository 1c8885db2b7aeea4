"""A benchmark's figures: written whole under results/bench/ and appended to its history
(benchmarks/<name>.jsonl), one line per stored run with when, the commit and the machine; every
committed history line is a record of its benchmark."""
import json
import os
from pathlib import Path

from harness.bench import store

HISTORY = Path(__file__).resolve().parents[2] / "benchmarks"


def test_a_stored_run_is_written_whole_and_appended_to_its_history(tmp_path, monkeypatch):
    monkeypatch.setenv("BLACKHOLE_RESULTS", str(tmp_path / "results"))
    first = store("demo", {"wall_s": 20.5}, history=tmp_path / "history")
    assert json.loads(first.read_text())["wall_s"] == 20.5 and first.parent == tmp_path / "results" / "bench"
    store("demo", {"wall_s": 19.0}, history=tmp_path / "history")
    lines = [json.loads(line) for line in (tmp_path / "history" / "demo.jsonl").read_text().splitlines()]
    assert [line["wall_s"] for line in lines] == [20.5, 19.0]
    assert all(line["bench"] == "demo" and line["utc"].endswith("Z") for line in lines)
    assert lines[0]["machine"]["cpus"] == os.cpu_count() and lines[0]["machine"]["memory_gib"] > 0


def test_every_committed_history_line_is_a_record_of_its_benchmark():
    files = sorted(HISTORY.glob("*.jsonl"))
    assert files
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            record = json.loads(line)
            assert record["bench"] == path.stem and record["utc"], f"{path.name}:{number}"
