"""The sentences of a run's page (its <p> paragraphs, not its tables, where '—' is an empty cell)
carry no leftovers: no None, nan, dict, '— busy', or path outside the run, for runs shaped as the lab
writes them: a cell back in its window, a cell still waiting when the run ended, a writer stuck
from the fault on, a machine whose CPU was sampled and one whose was not."""
import html
import json
import re

from harness import report
from harness.signals.data import DataAccounting
from harness.signals.machine import MachineCpu
from tests.unit.test_render import T, write_run

LEFTOVERS = re.compile(r"\bNone\b|\bnan\b|\{['\"]|— busy|/tmp/|\(0\)|\bs s\b")


def paragraphs(page):
    return [html.unescape(re.sub(r"<[^>]+>", "", p)) for p in re.findall(r"<p[^>]*>(.*?)</p>", page, re.S)]


def assert_no_leftovers(run):
    page = run.page.read_text()
    said = paragraphs(page)
    assert said, "the page has no sentences"
    for text in said + run.summary_md.read_text().split("\n\n"):
        if text.startswith("|"):
            continue                        # a markdown table's rows: '—' is an empty cell there
        assert not LEFTOVERS.search(text.replace(str(run.path), "<run>")), text
    assert "…" not in page, "a label cut short"
    [cells] = [t for t in re.findall(r"<table>(.*?)</table>", page, re.S)
               if t.startswith("<tr><th>cell</th>") and "<th>model window</th><th>in window" in t]
    rows = [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", cells)]
    empty = [header for i, header in enumerate(rows[0]) if all(row[i] in ("—", "") for row in rows[1:])]
    assert empty == [], f"columns empty for the whole run: {empty}"


def observed_until(run, seconds):
    with run.events_file.open("a") as events:
        events.write(json.dumps({"t": T + seconds, "source": "harness", "event": "observe_end"}) + "\n")


def test_a_cell_back_in_its_window_and_a_sampled_machine(tmp_path):
    run = write_run(tmp_path)
    run.write_text(MachineCpu.file(run, "cpu"), "".join(
        f"@ {T + t}\ncpu  {100 * i} 0 0 {100 * i} 0 0 0 0 0 0\nclock {T + t + 0.001} {50 + t:.2f} {T + t + 0.002}\n"
        for i, t in enumerate(range(-12, 14))))
    observed_until(run, 14)
    summary = report.render(run)
    assert summary.signals["machine"]["clock_steps"] == []
    assert paragraphs(run.page.read_text())[1].startswith("Worst: r5: its first error (MYSQL_2013) came 13.45 s")
    assert_no_leftovers(run)


def test_a_cell_still_waiting_and_a_writer_stuck_from_the_fault_on(tmp_path):
    run = write_run(tmp_path)
    ops = [op for op in map(json.loads, run.probe_log("r5").read_text().splitlines()) if op["t1"] < T]
    run.write_text(run.probe_log("r5"), "".join(json.dumps(op) + "\n" for op in ops))
    run.write_text(MachineCpu.file(run, "cpu"), "@ 1.0\n")        # a sampler that read nothing
    writes = [{"seq": n, "attempt": 1, "t0": T - 4 + n / 4, "t1": T - 4 + n / 4 + 0.01, "outcome": "ack",
               "server": "db-primary"} for n in range(16)]
    run.write_text(DataAccounting.file(run, "writes"), "".join(json.dumps(w) + "\n" for w in writes))
    run.write_text(DataAccounting.file(run, "ledger", server="db-replica"),
                   "".join(f"{n}\t1\n" for n in range(16)))
    observed_until(run, 110)
    summary = report.render(run)
    [cell] = summary.cells
    assert cell.probe.detect_s is None and cell.probe.recover_s is None
    first = " ".join(paragraphs(run.page.read_text())[:2])
    assert "r5 was still waiting when the run ended, 110.0 s after the fault" in first
    data = summary.signals["data"]            # the writer every failover has
    assert data["writes_resumed"] is False and data["unwritten_s"] == 110.0
    assert "none acknowledged from the fault to the end of the run (110.0 s)" in first
    assert_no_leftovers(run)
