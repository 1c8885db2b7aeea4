"""What a run's page marks and says beside its table, from runs shaped as the lab writes them: a
step before the fault (an NLB deregistration), a client that erred and never came back, a writer
that made no attempt, a burst run's counts, each chart's smallest text recorded in its PNG."""
import json

from PIL import Image

from harness import report
from harness.measure import summary_record
from harness.report import marks, tables
from harness.signals.chart_marks import SMALLEST_TEXT_KEY
from harness.signals.proxy.section import _row as proxy_row
from tests.unit.test_page_prose import assert_no_leftovers, observed_until, paragraphs
from tests.unit.test_render import T, write_run


def deregistered_before(run, seconds):
    step = {"t": T - seconds, "source": "harness", "event": "fault", "started_t": T - seconds, "done_t": T - seconds,
            "uncertainty_s": 0.02, "name": "aws_deregister", "step": 0, "effect": {"kind": "none"},
            "params": {"target": "db-primary", "delay_s": 10.0, "connection_termination": False}}
    run.events_file.write_text(json.dumps(step) + "\n" + run.events_file.read_text())


def test_a_step_before_the_fault_is_on_the_run_line_and_the_timeline(tmp_path):
    run = write_run(tmp_path)
    deregistered_before(run, 11.3)
    observed_until(run, 14)
    summary = report.render(run)
    assert [(s.name, s.at_s) for s in summary.steps] == [("aws_deregister", -11.3), ("ipvs_swap", 0.0)]
    [mark] = marks.of(summary)
    assert (mark.at_s, mark.kind) == (-11.3, "step") and mark.what.startswith("aws_deregister (target db-primary")
    line = "ipvs_swap (old db-primary, new db-replica, nodest drop, VIP:3306, drain_s 0.0), after " \
           "aws_deregister (target db-primary, delay_s 10.0, connection_termination False) 11.3 s before it"
    assert marks.fault_and_steps(summary) == line
    assert line in run.summary_md.read_text() and line in " ".join(paragraphs(run.page.read_text()))
    assert_no_leftovers(run)


def test_each_chart_records_its_smallest_text_and_the_page_lists_each_windows_basis(tmp_path):
    run = write_run(tmp_path)
    report.render(run)
    for png in run.charts_dir.glob("*.png"):
        with Image.open(png) as image:
            assert float(image.info[SMALLEST_TEXT_KEY]) >= 9, png.name
    page = run.page.read_text()
    basis = "tcp_retries2=5 budget 12.6 s"
    assert page.index("recovery.png") < page.index(f"<td>{basis}") and "…" not in page
    assert "<td class='value'>13.45 s</td>" in page            # a figure kept on one line with its unit


def test_a_client_that_erred_and_never_came_back_is_named_with_those_still_waiting(tmp_path):
    run = write_run(tmp_path)
    ops = [json.loads(line) for line in run.probe_log("r5").read_text().splitlines()][:-1]   # no success after
    run.write_text(run.probe_log("r5"), "".join(json.dumps(op) + "\n" for op in ops))
    observed_until(run, 20)
    summary = report.render(run).written
    [cell] = summary["cells"]
    assert cell["probe"]["recover_s"] is None and cell["probe"]["detect_s"] == 13.45
    assert "it was not back when the run ended" in paragraphs(run.page.read_text())[1]
    waiting = dict(cell, probe=dict(cell["probe"], detect_s=None, error=None))
    said = report.headline.sentences(summary_record.read(dict(summary, cells=[dict(waiting, cell="r15"), cell])))
    assert "r15 was still waiting when the run ended, 20.0 s after the fault" in said[0]
    assert said[0].endswith("; r5 had an error and was not back by then.")


def test_a_writer_that_made_no_attempt_is_unknown_not_zero(tmp_path):
    run = write_run(tmp_path)
    observed_until(run, 14)
    summary = report.render(run)                # the synthetic scenario has the writer every failover has
    data = summary.signals["data"]
    assert data["writer_log"] == "missing"
    said = " ".join(paragraphs(run.page.read_text()))
    assert "The writer made no attempt (its log is missing): nothing is known of the writes." in said
    assert "A writer inserted" not in said and "write(s) acknowledged" not in said


def test_a_burst_runs_counts_are_words_not_json():
    cell = {"cell": "small-nginx", "server": "web-a", "target": "nginx", "connect_steps": {"0-0.5s": 40},
            "statuses": {"200": 8, "502": 2, "504": 30}, "errors": {}, "nginx_statuses": {"504": 30, "200": 8},
            "server_counters": {"TcpExtListenOverflows": 38}}
    [row] = tables.burst_rows(summary_record.read({"scenario": "backlog-overflow", "run": "x", "kind": "burst",
                                                   "servers": {"web-a": {"backlog": 2}}, "cells": [cell]}))
    assert row == ["small-nginx", "web-a", "nginx", "2", "0–0.5 s: 40", "504: 30, 200: 8, 502: 2", "—",
                   "504: 30, 200: 8", "38"]


def test_a_client_the_proxy_told_nothing_noticed_by_its_own_limit():
    cell = {"cell": "r15-rt5", "probe": {"detect_s": 5.08}}
    part = {"director": "director", "ended_by": "still open at the end of the run"}
    assert proxy_row(cell, part)[5:8] == ["nothing", "—", "5.08 s (by its own limit)"]
    told = dict(part, client_got="FIN", client_got_s=10.41)
    assert proxy_row(dict(cell, probe={"detect_s": 10.41}), told)[5:8] == ["FIN", "10.41 s", "10.41 s"]


def test_a_load_that_ended_during_the_run_is_said_on_the_page(tmp_path):
    run = write_run(tmp_path)
    with run.events_file.open("a") as events:
        events.write(json.dumps({"t": T + 10.2, "source": "harness", "event": "load_ended", "cell": "r5",
                                 "load": "sysbench", "how": "exited -11"}) + "\n")
    observed_until(run, 14)
    summary = report.render(run)
    said = "r5's sysbench exited -11 (seen 10.2 s after the fault): the run did not wait for it to come back."
    assert summary.written["loads_ended"] == [{"cell": "r5", "load": "sysbench", "how": "exited -11", "at_s": 10.2}]
    assert said in paragraphs(run.page.read_text()) and said in run.summary_md.read_text()


def test_the_connect_chart_draws_no_panel_of_zeros(tmp_path):
    from harness.signals.connect import chart
    second = {"p50": 1.5, "p99": 3.0, "p99_9": 3.2, "max": 3.3}
    part = {"per_second": [dict(second, t=t, failed=0) for t in range(-3, 5)], "rate_per_s": 20, "port": 3306,
            "syn_schedule": {"retransmitted_at_s": [1, 3, 7]}, "healed_after_s": 2.0}
    for failed, panels in ((0, 1), (2, 2)):
        part["per_second"][4]["failed"] = failed
        path = tmp_path / f"connect-{failed}.png"
        summary = summary_record.read({"scenario": "s", "run": "r", "cells": [], "signals": {"connect": part}})
        assert chart.draw(None, None, summary, path) is True
        with Image.open(path) as image:
            tall = image.size[1]
        assert (tall < 460) == (panels == 1), tall          # 4.5 in (one panel) against 5.5 in, at 90 dpi
