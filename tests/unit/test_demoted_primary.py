"""A primary demoted in place (faults read_only and end_connections): the writes it refused counted
from the writer's own records, the cells that came back on it named as on a server that refuses
writes, the engines that cannot refuse the clients' writes refused by name before anything starts,
and the reconnects page saying that the old address answered."""
import json
import pathlib

import pytest
import yaml

from harness import report
from harness.measure import summary_record
from harness.measure.summary_record import Step
from harness.report import headline
from harness.scenario.parser import parse
from harness.scenario.reader import ScenarioError
from harness.signals.data import ledger
from harness.signals.reconnects import section
from harness.store import RunDir
from tests.unit.test_reconnects import NEW, OLD, text
from tests.unit.test_render import T

SCENARIO = pathlib.Path(__file__).resolve().parents[2] / "scenarios" / "dns-switchover.yaml"


def write(seq, outcome, t0, server=None, error=None):
    record = {"seq": seq, "attempt": 1, "t0": t0, "t1": t0 + 0.01, "outcome": outcome}
    return record | ({"server": server} if server else {}) | ({"error": error} if error else {})


def test_writes_a_server_answered_with_an_error_are_grouped_by_error_and_server_with_when_they_were_sent():
    attempts = [write(1, "ack", T - 6, "db-primary"),
                write(2, "failed", T - 5.5, "db-primary", "MYSQL_1290"),
                write(3, "failed", T - 3.0, "db-primary", "MYSQL_1290"),
                write(4, "failed", T - 2.9, error="MYSQL_2003"),          # no connection: no server refused it
                write(5, "in_doubt", T + 0.1, "db-primary", "MYSQL_2013"),
                write(6, "ack", T + 0.3, "db-replica")]
    assert ledger.refused(attempts, T) == [{"error": "MYSQL_1290", "server": "db-primary", "count": 2,
                                            "first_s": -5.5, "last_s": -3.0}]
    assert ledger.refused(attempts[:1], T) == []


def test_a_server_made_read_only_stays_so_until_a_later_step_promotes_it():
    steps = [{"event": "fault", "name": "read_only", "params": {"target": "db-primary"}, "at_s": -5.6},
             {"event": "fault", "name": "promote_replica", "params": {"target": "db-replica"}, "at_s": -3.4},
             {"event": "fault", "name": "end_connections", "params": {"target": "db-primary"}, "at_s": 0.0}]
    assert headline.read_only_servers([Step.read(s) for s in steps]) == {"db-primary": -5.6}
    again = steps + [{"event": "fault", "name": "promote_replica", "params": {"target": "db-primary"}, "at_s": 9.0}]
    assert headline.read_only_servers([Step.read(s) for s in again]) == {}


def test_the_headline_names_the_cells_back_on_the_read_only_server_and_the_writes_it_refused():
    def cell(name, server):
        return {"cell": name, "predicted": {"expected_s": 0.05, "earliest_s": 0.0, "latest_s": 0.6},
                "probe": {"detect_s": 0.1, "recover_s": 0.2, "error": "MYSQL_2013", "server_after": server,
                          "within_window": True}}
    summary = {"scenario": "s", "run": "r", "purpose": "A switchover.", "cells": [cell("by-name", "db-replica"), cell("jvm-30s", "db-primary")],
               "steps": [{"event": "fault", "name": "read_only", "params": {"target": "db-primary"}, "at_s": -5.6}],
               "signals": {"data": {"acknowledged": 139, "read_back": True, "lost": 0,
                                    "refused": [{"error": "MYSQL_1290", "server": "db-primary", "count": 24,
                                                 "first_s": -5.5, "last_s": -3.0}]}}}
    said = " ".join(headline.sentences(summary_record.read(summary)))
    assert "jvm-30s was back on db-primary, which refused writes from 5.6 s before the fault on" in said
    assert "by-name was back" not in said and "24 refused by db-primary (MYSQL_1290)" in said


@pytest.mark.parametrize("engine, refused", [("mariadb", True), ("mysql", False), ("postgres", False)])
def test_read_only_is_refused_by_name_where_the_clients_login_would_still_write(engine, refused):
    raw = yaml.safe_load(SCENARIO.read_text()) | {"database": engine}
    if engine == "postgres":
        raw["cells"] = [c for c in raw["cells"] if c.get("client") is None]
    if not refused:
        assert [s.name for s in parse(raw).steps if s.kind == "fault"][0] == "read_only"
        return
    with pytest.raises(ScenarioError, match=r"steps\[0\]: read_only: MariaDB's read_only lets a login holding "
                                            "READ_ONLY ADMIN write"):
        parse(raw)


def test_a_client_on_its_last_connect_is_shown_with_every_one_that_got_through_and_the_old_host_as_up():
    summary = {"cells": [{"cell": "jdbc-host-list", "reconnects": [
        {"at_s": 0.086, "address": NEW, "took_s": 0.001, "error": None},
        {"at_s": 0.177, "address": OLD, "took_s": 0.001, "error": None}]}],
        "signals": {"reconnects": {"addresses": {OLD: "db-primary (the old address)",
                                                 NEW: "db-replica (the new address)"}, "silent": []}}}
    [row] = section.rows(summary)
    assert row[3:] == ["db-replica (the new address) then db-primary (the old address)", "0.18 s"]
    [_, words] = section.blocks(summary)
    assert "reached the old primary, still up" in words and "silent host" not in words
    summary["signals"]["reconnects"]["silent"] = ["db-primary"]
    assert "met the silent host" in section.blocks(summary)[1]


def test_the_old_address_is_named_by_its_server_and_no_silent_host_is_claimed(tmp_path):
    run = RunDir.create("synthetic", {"control": "dns", "load": {"probe": {"proto": "mysql", "interval_ms": 100}},
                                      "cells": [{"tcp_retries2": 5}],
                                      "steps": [{"fault": "dns_move", "to": "db-replica"},
                                                {"fault": "end_connections", "target": "db-primary"}]},
                        results=tmp_path)
    run.write_text(run.probe_log("r5"), text([
        {"connected": T - 10, "conn": 1, "local_port": 34226, "address": OLD},
        {"t0": T - 1, "t1": T - 0.99, "ok": True, "server": "db-primary", "conn": 1},
        {"t0": T + 0.02, "t1": T + 0.03, "ok": False, "error": "MYSQL_2013", "conn": 1},
        {"connected": T + 0.13, "conn": 2, "local_port": 51438, "address": NEW},
        {"t0": T + 0.12, "t1": T + 0.14, "ok": True, "server": "db-replica", "conn": 2}]))
    events = [{"t": T - 3, "source": "harness", "event": "fault", "started_t": T - 3.2, "done_t": T - 2.9,
               "uncertainty_s": 0.003, "name": "dns_move", "params": {"to": "db-replica"}, "step": 0,
               "effect": {"kind": "none"}, "seen": {"old_address": OLD, "new_address": NEW, "old_server": "db-primary"}},
              {"t": T, "source": "harness", "event": "fault", "started_t": T, "done_t": T + 0.1, "uncertainty_s": 0.03,
               "name": "end_connections", "params": {"target": "db-primary"}, "step": 1, "effect": {"kind": "reset"},
               "seen": {"connections_ended": 4}}]
    run.events_file.write_text("".join(json.dumps(e) + "\n" for e in events))
    summary = report.render(run)
    assert summary.signals["reconnects"] == {"addresses": {OLD: "db-primary (the old address)",
                                                              NEW: "db-replica (the new address)"}, "silent": []}
    assert "reached the old primary, still up" in run.summary_md.read_text()
