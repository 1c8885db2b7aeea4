"""summary.json as typed records (harness/measure/summary_record.py): what a run wrote is read as
written, what it did not measure is None, and what every run writes, missing, is named."""
import json

import pytest

from harness.measure import run_record, summary_record
from harness.measure.summary_error import SummaryError

CELL = {"cell": "r5", "knobs": {"tcp_retries2": 5},
        "probe": {"detect_s": 13.48, "recover_s": 13.5, "error": "MYSQL_2013", "stall_s": 13.38, "sent_s": 0.1,
                  "server_before": "db-primary", "server_after": "db-replica", "failed_operations": 1,
                  "never_worked": None, "within_window": True, "ratio": 1.01},
        "predicted": {"expected_s": 13.41, "earliest_s": 13.25, "latest_s": 13.81, "basis": "tcp_retries2=5 budget 12.6 s",
                      "base_rto_s": 0.204, "send_by_s": 0.137}}
RUN = {"scenario": "lvs-switchover-matrix", "run": "20261204T110745Z-e5430c", "kernel": "6.18.44", "datapath": "ipvs",
       "observed_s": 107.3, "cells": [CELL], "signals": {"connect": {"phases": {"during": {"p50": 1.2}}}}}


def test_a_failover_run_is_read_as_written():
    summary = summary_record.read(json.loads(json.dumps(RUN)))
    [cell] = summary.cells
    assert (summary.kind, summary.kernel, summary.datapath, summary.observed_s) == ("failover", "6.18.44", "ipvs", 107.3)
    assert (cell.name, cell.probe.detect_s, cell.probe.server_after, cell.probe.within_window) == ("r5", 13.48, "db-replica", True)
    assert (cell.predicted.earliest_s, cell.predicted.base_rto_s, cell.lb) == (13.25, 0.204, None)
    assert summary.cell("r5") is cell and summary.cell("r8") is None and summary.burst_cells == ()
    assert cell.predicted.holds(13.25, 13.81) and not cell.predicted.holds(13.9)
    assert cell.predicted.as_json() == CELL["predicted"]


def test_what_a_run_did_not_measure_is_none_and_a_window_without_an_error_holds_nothing():
    quiet = {"cell": "idle", "probe": {"detect_s": None, "recover_s": None},
             "predicted": {"expected_s": None, "earliest_s": None, "latest_s": None, "basis": "never"}}
    [cell] = summary_record.read({**RUN, "cells": [quiet]}).cells
    assert (cell.probe.error, cell.probe.within_window, cell.predicted.base_rto_s) == (None, None, None)
    assert not cell.predicted.holds(1.0) and cell.predicted.as_json()["expected_s"] is None


def test_a_summary_without_what_every_run_writes_is_refused_naming_it():
    with pytest.raises(SummaryError, match="the run has no 'run'"):
        summary_record.read({k: v for k, v in RUN.items() if k != "run"})
    probe = {k: v for k, v in CELL["probe"].items() if k != "detect_s"}
    with pytest.raises(SummaryError, match="cell 'r5''s probe has no 'detect_s'"):
        summary_record.read({**RUN, "cells": [{**CELL, "probe": probe}]})
    with pytest.raises(SummaryError, match="cell 'r5' has no 'predicted'"):
        summary_record.read({**RUN, "cells": [{k: v for k, v in CELL.items() if k != "predicted"}]})


def test_a_burst_run_has_burst_cells_only():
    cell = {"cell": "b1", "server": "web-a", "target": "upstream", "connect_steps": {"1": 3}, "statuses": {"200": 31},
            "errors": {}, "server_counters": {"TcpExtListenOverflows": 4}, "nginx_statuses": {}}
    summary = summary_record.read({"scenario": "backlog-overflow", "run": "x", "kind": "burst", "cells": [cell]})
    assert summary.cells == () and summary.burst_cells[0].server_counters["TcpExtListenOverflows"] == 4
    with pytest.raises(SummaryError, match="cell 'b1' has no 'statuses'"):
        summary_record.read({"scenario": "s", "run": "x", "kind": "burst",
                             "cells": [{k: v for k, v in cell.items() if k != "statuses"}]})


@pytest.mark.parametrize("events, written", [
    ([{"source": "harness", "event": "fault", "t": 5.0}], {"state": "completed"}),
    ([{"source": "harness", "event": "interrupted", "signal": "SIGTERM", "phase": "observing", "t": 9.5}],
     {"state": "interrupted", "by": "SIGTERM", "phase": "observing", "t": 9.5}),
    ([{"source": "harness", "event": "interrupted", "t": 3.0}],
     {"state": "interrupted", "by": "SIGINT", "phase": None, "t": 3.0}),
    ([{"source": "harness", "event": "failed", "error": "the lab broke", "phase": "starting", "t": 2.0},
      {"source": "client", "event": "interrupted", "t": 1.0}],
     {"state": "failed", "reason": "the lab broke", "phase": "starting", "t": 2.0}),
])
def test_how_a_run_ended_is_read_from_its_events_and_written_and_read_back_the_same(events, written):
    status = run_record.run_status(events)
    assert status.as_json() == written
    assert summary_record.RunStatus.read(status.as_json()) == status


def test_the_run_wide_parts_are_read_as_written_and_a_run_before_engines_were_recorded_ran_mariadb():
    written = {**RUN, "fault": {"t": 1796500000.5, "source": "harness", "event": "fault", "name": "silent_kill",
                                "params": {"target": "db-primary"}, "uncertainty_s": 0.031,
                                "seen": {"unanswered_at_output_cut": 2}},
               "database": {"engine": "postgres", "version": "15.14"}, "note": "a note",
               "loads_ended": [{"cell": "r5", "load": "sysbench", "how": "exited -11", "at_s": 10.2}]}
    summary = summary_record.read(written)
    assert summary.fault == summary_record.FaultPart("silent_kill", {"target": "db-primary"}, 1796500000.5, 0.031,
                                                     {"unanswered_at_output_cut": 2})
    assert summary.database == summary_record.DatabaseRan("postgres", "15.14") and summary.note == "a note"
    assert summary.loads_ended == (summary_record.LoadEnded("r5", "sysbench", "exited -11", 10.2),)
    assert summary.written is written
    before = summary_record.read(RUN)
    assert (before.fault, before.database, before.loads_ended, before.note) == (
        None, summary_record.DatabaseRan("mariadb", None), (), None)


def test_a_fault_without_its_time_or_an_ended_load_without_its_cell_is_refused_naming_it():
    with pytest.raises(SummaryError, match="the fault has no 't'"):
        summary_record.read({**RUN, "fault": {"name": "silent_kill"}})
    with pytest.raises(SummaryError, match="an ended load has no 'cell'"):
        summary_record.read({**RUN, "loads_ended": [{"load": "sysbench", "how": "exited -11", "at_s": 10.2}]})
