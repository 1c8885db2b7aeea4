"""The answer a run's page, summary.md and terminal open with (harness/report/headline.py), from
summaries shaped as the lab writes them, and the writer's gap it reads (signals/data/ledger.py)."""
from harness.measure import summary_record
from harness.report import headline, tables
from harness.signals.data import ledger, section


def cell(name, detect, recover, window=(13.3, 14.8, 14.0), within=True, error="MYSQL_2013", survived=False, lb=None):
    earliest, latest, expected = window
    entry = {"cell": name, "survived": survived,
             "predicted": {"expected_s": expected, "earliest_s": earliest, "latest_s": latest, "basis": "x"},
             "probe": {"detect_s": detect, "recover_s": recover, "error": error if detect is not None else None,
                       "within_window": within, "server_after": "db-replica", "never_worked": None}}
    if lb:
        entry["lb"] = lb
    return entry


def summary(*cells, **more):
    return summary_record.read({"scenario": "s", "run": "r", "status": {"state": "completed"}, "observed_s": 160.0,
                                "fault": {"name": "silent_kill", "t": 1000.0}, "cells": list(cells), **more})


BURST_CELL = {"cell": "b1", "server": "web", "target": "vip", "connect_steps": {"0-1s": 30}, "statuses": {"200": 30},
              "errors": {}, "server_counters": {"TcpExtListenOverflows": 0}, "nginx_statuses": {"200": 30}}


def test_a_cell_still_waiting_is_the_worst_and_named_with_its_models_figure():
    said = headline.sentences(summary(cell("r5", 14.0, 14.1), cell("yours", None, None, (933.0, 952.9, 935.9), None),
                                      purpose="A silent death behind keepalived."))
    assert said[0] == "A silent death behind keepalived."
    assert said[1] == ("Worst: yours was still waiting when the run ended, 160.0 s after the fault; the model says "
                       "yours's kernel gives up about 935.9 s after it (window 933.0–952.9 s).")


def test_without_a_cell_still_waiting_the_longest_to_be_back_is_the_worst():
    said = headline.sentences(summary(cell("r5", 14.0, 14.1), cell("r3", 6.8, 30.2, within=False)))
    assert said[0] == ("Worst: r3: its first error (MYSQL_2013) came 6.80 s after the fault; it was back 30.20 s "
                       "after the fault, on db-replica.")
    assert said[1].startswith("1 of 2 cells with a model window ended inside it; outside: r3")


def test_the_load_balancers_first_change_and_the_writers_gap_are_said():
    lb = {"director": "director", "noticed_s": 11.3, "model": {"earliest_s": 7.0, "latest_s": 12.3}}
    stuck = {"acknowledged": 16, "lost": 0, "read_back": True, "writes_resumed": False, "unwritten_s": 110.0}
    said = headline.sentences(summary(cell("r5", 14.0, 14.1, lb=lb), signals={"data": stuck}))
    assert "The load balancer (director) acted 11.3 s after the fault (its model: 7.0–12.3 s)." in said
    assert said[-1] == ("The writer: 16 write(s) acknowledged, 0 of them lost; none acknowledged from the fault to "
                        "the end of the run (110.0 s), so what it would have lost after then is unknown.")


def test_a_burst_run_or_one_without_cells_has_no_headline():
    assert headline.sentences(summary_record.read({"scenario": "s", "run": "r", "kind": "burst",
                                                   "cells": [BURST_CELL]})) == []
    assert headline.sentences(summary()) == []


def test_the_writers_gap_runs_to_its_first_acknowledged_write_after_the_fault_or_to_the_end():
    attempts = [{"t0": 99.0, "t1": 99.1, "outcome": "ack"}, {"t0": 99.5, "t1": 105.0, "outcome": "in_doubt"},
                {"t0": 105.0, "t1": 112.5, "outcome": "ack"}]
    assert ledger.unwritten_after(attempts, 100.0, 112.6) == (12.5, True, 0.0)
    assert ledger.unwritten_after(attempts[:1], 100.0, 210.0) == (110.0, False, 0.0)


def test_writes_acknowledged_before_the_fault_landed_are_not_the_writer_back():
    """A replay (2026-12-04): the death took 11 s to land; two writes were acknowledged 0.16 and
    0.38 s after the fault's recorded time, then none for the run's last 159.6 s."""
    attempts = [{"t0": 99.9, "t1": 99.95, "outcome": "ack"}, {"t0": 100.12, "t1": 100.16, "outcome": "ack"},
                {"t0": 100.37, "t1": 100.38, "outcome": "ack"}]
    assert ledger.unwritten_after(attempts, 100.0, 260.0) == (159.62, False, 0.38)
    stuck = {"acknowledged": 172, "read_back": False, "writes_resumed": False, "unwritten_s": 159.62,
             "unwritten_from_s": 0.38}
    said = headline.sentences(summary(cell("r5", 14.0, 14.1), signals={"data": stuck}))
    assert said[-1] == ("The writer: 172 write(s) acknowledged, the new primary not read back; none acknowledged "
                        "from 0.4 s after the fault to the end of the run (159.6 s), so what it would have lost "
                        "after then is unknown.")
    back = {**stuck, "writes_resumed": True, "unwritten_s": 12.0, "unwritten_from_s": 0.38}
    assert headline.sentences(summary(cell("r5", 14.0, 14.1), signals={"data": back}))[-1].endswith(
        "none acknowledged for 12.0 s from 0.4 s after the fault, then again.")
    resumed = [*attempts, {"t0": 112.0, "t1": 112.5, "outcome": "ack"}, {"t0": 112.6, "t1": 112.7, "outcome": "ack"}]
    assert ledger.unwritten_after(resumed, 100.0, 113.0) == (12.12, True, 0.38)


def test_a_stuck_writer_is_never_shown_as_a_bare_zero_lost():
    part = {"writes": 16, "acknowledged": 16, "never_written": 0, "attempts": {"in_doubt": 0}, "in_doubt": 0,
            "in_doubt_committed": 0, "lost": 0, "duplicates": 0, "retried": 0, "read_back": True,
            "writes_resumed": False, "unwritten_s": 110.0, "rate_per_s": 4, "attempts_per_write": 1,
            "new_primary": "db-primary"}
    [row] = section.rows(part)
    assert row[6] == "0 (of the writes made)" and row[-1] == "110.0 s, to the end of the run"
    assert section.explanations(part)[0].startswith("The writer got no write acknowledged from the fault")


def test_columns_empty_on_every_row_are_left_out_and_the_first_stays():
    header, rows = tables.drop_empty_columns(["cell", "a", "b"], [["x", "—", "1"], ["y", "—", "—"]])
    assert header == ["cell", "b"] and rows == [["x", "1"], ["y", "—"]]


def test_one_cell_is_not_counted_as_all_and_a_change_outside_its_model_says_so():
    lb = {"director": "d", "noticed_s": 9.7, "model": {"earliest_s": 10.0, "latest_s": 12.5}, "within_model": False}
    said = headline.sentences(summary(cell("r5", 14.0, 14.1, lb=lb)))
    assert "The one cell with a model window ended inside it." in said
    assert "The load balancer (d) acted 9.7 s after the fault (its model: 10.0–12.5 s), outside its model." in said
