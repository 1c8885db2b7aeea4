"""The workshop kit's pure parts: exercise files, answers from a run's figures, the narration's
reading of ss and the lines it prints (80 columns), and runs compared across scenarios."""
import io
import json

import pytest

from harness.measure.effects import Effect
from harness.measure import kernel_model, recovery, run_record, summary_record
from harness.measure.predict import Window
from harness.measure.ss_log import SocketSample
from harness.report import tables
from harness.run.live import CellView
from harness.workshop.narrated_view import NarratedView
from harness.scenario import parser
from harness.workshop import answers, exercises, narration


def test_every_exercise_loads_and_names_only_cells_and_fields_its_scenario_has():
    found = exercises.all_exercises()
    assert [e.number for e in found] == list(range(1, len(found) + 1)) and len(found) >= 8
    for ex in found:
        assert exercises.check(ex) == [], ex.path.name
        assert ex.question and ex.predict and ex.look and ex.teaches


@pytest.mark.parametrize("text, message", [
    ("title: x\n", "scenario is missing"),
    ("[1, 2]\n", "a mapping of"),
    ("{title: t, scenario: s, question: q, predict: p, look: l, teaches: t, colour: red}\n", "unknown field"),
    ("{title: t, scenario: s, question: q, predict: p, look: l, teaches: 7}\n", "teaches has the wrong"),
])
def test_a_broken_exercise_file_is_refused_naming_the_file(tmp_path, text, message):
    (tmp_path / "1-broken.yaml").write_text(text)
    with pytest.raises(exercises.ExerciseError, match=f"1-broken.yaml: {message}"):
        exercises.all_exercises(tmp_path)


def test_an_exercise_naming_a_cell_its_scenario_lacks_is_caught(tmp_path):
    (tmp_path / "1-x.yaml").write_text(
        "{title: t, scenario: workshop-seed, question: q, predict: p, look: l,"
        " teaches: 'it took {nosuch.detect} and {defaults.colour}'}\n")
    problems = exercises.check(exercises.all_exercises(tmp_path)[0])
    assert any("names cell 'nosuch'" in p for p in problems) and any("asks for 'colour'" in p for p in problems)
    with pytest.raises(exercises.ExerciseError, match="no exercise 7; there are 1"):
        exercises.exercise(7, tmp_path)


def cell(name, detect, recover, expected, window=(13.1, 13.8), error="MYSQL_2013"):
    return {"cell": name, "probe": {"detect_s": detect, "recover_s": recover, "stall_s": None, "error": error,
                                    "server_after": "db-replica" if recover else None},
            "predicted": {"expected_s": expected, "earliest_s": window[0], "latest_s": window[1]}}


def test_answers_fill_each_placeholder_from_the_run_and_say_what_is_missing():
    summary = summary_record.read({"scenario": "workshop-seed", "run": "20261204T000000Z-abc", "observed_s": 25.6,
                                   "cells": [cell("r5", 13.52, 13.6, 13.4), cell("defaults", None, None, 939.0)]})
    text = answers.fill("r5 {r5.detect} ({r5.window}), back on {r5.server}; defaults: {defaults.outcome}, "
                        "due {defaults.expected}; {gone.detect}", summary)
    assert text == ("r5 13.5 s (13.1–13.8 s), back on db-replica; defaults: no error yet when the run stopped "
                    "watching 25.6 s after the fault, due 939 s (15.7 min); [gone.detect: not in this run]")


def sample(timer, t=100.0, port=40000):
    return SocketSample(t=t, state="ESTAB", local_port=port, timer=timer)


@pytest.mark.parametrize("field, seconds", [
    ("on,1.044ms,3", 1.044), ("on,096ms,3", 0.096), ("on,24sec,9", 24.0), ("on,1min17sec,9", 77.0),
    ("keepalive,104min,0", 6240.0), ("on,,3", 0.0),
])
def test_ss_timers_are_read_as_iproute2_prints_them(field, seconds):
    kind, expiry, _ = narration.timer(sample(field))
    assert expiry == pytest.approx(seconds) and kind in ("on", "keepalive")


def test_the_plan_counts_one_rto_retransmission_per_step_of_tcp_retries2():
    # ss's timer count reached 15 in client-zoo's tcp_retries2=15 cells before ETIMEDOUT
    assert narration.retransmissions_planned(kernel_model.for_knobs(15)) == 15
    assert narration.retransmissions_planned(kernel_model.for_knobs(5)) == 5


def test_a_line_says_where_the_kernel_stands_then_what_the_client_was_told_in_80_columns():
    plan = kernel_model.for_knobs(15)
    window = Window(939.0, 928.9, 948.3, "tcp_retries2")
    line = narration.cell_line("a-rather-long-cell-name", 15, 104.5, 100.0, recovery.Outcome(), window, plan,
                               sample("on,1.600ms,3", t=104.0))
    assert "RTO 3/15 next 1.1s" in line and "budget 921s left" in line and "error in ~16 min" in line
    assert len(line) <= 79
    told = narration.cell_line("r5", 15, 114.0, 100.0, recovery.Outcome(detect_s=13.5, recover_s=13.6,
                                                                              error="MYSQL_2013"),
                               window, plan, None)
    assert "told after 13.5 s (MYSQL_2013), back after 13.6 s" in told
    app = narration.cell_line("rt3", 15, 101.0, 100.0, recovery.Outcome(), window, plan, None, read_timeout_s=3.0)
    assert "app gives up in 2.0s" in app and "no unanswered data" in app


def test_a_client_that_starts_retransmitting_late_is_counted_down_from_its_own_first_retransmission():
    plan = kernel_model.for_knobs(5)
    fault_window = Window(13.4, 13.1, 13.8, "tcp_retries2")      # from the fault: wrong for a client idle until 125
    line = narration.cell_line("idle", 8, 130.0, 100.0, recovery.Outcome(), fault_window, plan,
                               sample("on,800ms,2", t=129.5), first_rto_t=125.5)
    expected_in = plan.detect_s - narration.clock_start_s(plan) - 4.5
    assert f"error in ~{expected_in:.0f}s" in line and "budget 8s left" in line
    quiet = narration.cell_line("idle", 8, 110.0, 100.0, recovery.Outcome(), fault_window, plan,
                                sample("keepalive,3.000ms,0", t=109.5))
    assert "keepalive probe in 2.5s" in quiet and "error in" not in quiet


def test_the_narrated_view_reads_live_ss_samples_of_each_clients_first_connection(tmp_path):
    probe, ss = tmp_path / "probe.jsonl", tmp_path / "ss.txt"
    probe.write_text(json.dumps({"connected": 90.0, "conn": 1, "local_port": 40000}) + "\n"
                     + json.dumps({"t0": 99.0, "t1": 99.01, "ok": True, "server": "a", "conn": 1}) + "\n")
    ss.write_text("@ 104.0\nESTAB 0 22 10.0.0.2:40000 10.0.0.1:3306 timer:(on,1.600ms,3)\n"
                  "\t rto:1600 backoff:3 retrans:1/3\n")
    scenario_cell = parser.parse({"load": {"probe": {}}, "cells": [{"name": "r5", "tcp_retries2": 5}],
                                  "steps": [{"fault": "silent_kill", "target": "db-primary"}]}).cells[0]
    out = io.StringIO()
    view = NarratedView([CellView("r5", probe, None)], [scenario_cell], {scenario_cell.namespace: ss}, 0.1,
                        out=out, clock=lambda: 100.0)
    view.started = 90.0
    view.fault_started(100.0, 60, Effect("blackhole"))
    view.tick(104.5)
    view.tick(105.0)
    text = out.getvalue()
    assert "the director dropped the old flows" in text and "r5" in text and "RTO 3/5 next 0.6s" in text
    assert all(len(line) <= 79 for line in text.splitlines()), text


def test_a_cell_whose_error_is_due_after_the_run_is_not_called_a_miss():
    window = Window(939.0, 928.9, 948.3, "tcp_retries2")
    undecided = run_record.cell_verdict(window, recovery.Outcome(), summary_record.RunStatus("completed"), observed_s=25.6)
    assert (undecided.value, undecided.within_window) == ("unknown", None)
    assert undecided.why == "no error in the 25.6 s the run watched; the model's window opens at 928.90 s"
    late = run_record.cell_verdict(Window(13.4, 13.1, 13.8, "x"), recovery.Outcome(), summary_record.RunStatus("completed"), 25.6)
    assert (late.value, late.within_window) == ("invalid", False)
    written = {"scenario": "s", "run": "r", "status": {"state": "completed"},
               "cells": [cell("defaults", None, None, 939.0, (928.9, 948.3))]}
    written["cells"][0]["probe"]["within_window"] = undecided.within_window
    written["cells"][0]["probe"]["verdict"] = undecided.as_json()
    narrow = tables.terminal_table(summary_record.read(written), narrow=True)
    assert "unknown" in narrow and all(len(line) <= 80 for line in narrow.splitlines())


def test_runs_of_different_scenarios_compare_cell_by_cell_under_their_scenarios_names(tmp_path):
    from harness import compare_runs
    from harness.store import RunDir

    def run_dir(name, scenario, cells):
        d = tmp_path / scenario / name
        d.mkdir(parents=True)
        (d / "scenario.yaml").write_text("{}\n")
        (d / "summary.json").write_text(json.dumps({"scenario": scenario, "run": name, "kernel": "k",
                                                    "datapath": "nftables", "cells": cells}))
        (d / "env.json").write_text("{}")
        return RunDir(d)
    def measured(*args):
        c = cell(*args)
        c["probe"]["within_window"], c["predicted"]["basis"] = True, "tcp_retries2"
        return c
    runs = [("one", run_dir("a", "workshop-seed", [measured("r5", 13.5, 13.6, 13.4)])),
            ("two", run_dir("b", "workshop-lb-reset", [measured("defaults", 0.3, 0.6, 0.4, (0.2, 0.6))]))]
    page = compare_runs.compare(runs, out_dir=tmp_path / "page")
    comparison = json.loads((page.parent / "comparison.json").read_text())
    assert [c["cell"] for c in comparison["cells"]] == ["workshop-seed/r5", "workshop-lb-reset/defaults"]
    assert all(c["flags"] == [] for c in comparison["cells"])        # not "missing": other scenarios
    with pytest.raises(compare_runs.InvalidInput, match="at least two runs"):
        compare_runs.parse_runs([str(tmp_path / "workshop-seed" / "a")])


def test_the_participants_guide_is_generated_from_the_exercises_and_current():
    from harness.workshop import docs, record
    measured = record.load(docs.DOCS_DIR / docs.FACILITATOR / "answers.json")
    committed = (docs.DOCS_DIR / "exercises.md").read_text()
    assert committed == docs.guide_markdown(measured), "docs/workshop/exercises.md is stale: make workshop-docs"
    assert "Usual wrong guesses" not in committed and "teaches" not in committed
    readme = (docs.DOCS_DIR / "README.md").read_text()
    assert docs.exercise_table(measured) in readme, "the README's exercise table is stale: make workshop-docs"


def test_a_big_grid_keeps_each_block_on_a_24_row_screen(tmp_path):
    raw_cells = [{"name": f"c{n:02d}", "tcp_retries2": 5} for n in range(12)]
    scenario_cells = parser.parse({"load": {"probe": {}}, "cells": raw_cells,
                                   "steps": [{"fault": "silent_kill", "target": "db-primary"}]}).cells
    views = []
    for n, scenario_cell in enumerate(scenario_cells):
        probe = tmp_path / f"{scenario_cell.name}.jsonl"
        ops = [{"t0": 99.0, "t1": 99.01, "ok": True, "server": "a"}]
        if n:                                                    # all but c00 are back already
            ops += [{"t0": 100.1, "t1": 101.0, "ok": False, "error": "X"}, {"t0": 101.1, "t1": 101.2, "ok": True,
                                                                            "server": "b"}]
        probe.write_text("".join(json.dumps(op) + "\n" for op in ops))
        views.append(CellView(scenario_cell.name, probe, None))
    out = io.StringIO()
    view = NarratedView(views, scenario_cells, {}, 0.1, out=out, clock=lambda: 100.0)
    view.started = 90.0
    view.fault_started(100.0, 60)
    view.tick(104.0)
    view.tick(105.0)
    block = out.getvalue().split("after the fault (the run", 1)[1].splitlines()[1:]
    assert block[0] == "  11 of 12 clients back at work" and block[1].startswith("  c00 ") and len(block) == 2
