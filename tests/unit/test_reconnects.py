"""Where each reconnect went (harness/signals/reconnects/): the attempts read from a probe's and a zoo
program's own lines (taken from a dns-failover run on this host, 2026-12-05), and the cell's part of
a run written by hand under control: dns; nothing under a plane the clients reach by its VIP."""
import json

from harness import report
from harness.signals.reconnects.attempts import KEPT_ITS_CONNECTION, NEXT_HOST, Attempt, attempts
from harness.store import RunDir
from tests.unit.test_render import T, write_run

OLD, NEW = "10.213.1.121", "10.213.1.122"
PROBE = [{"connected": T - 10, "conn": 1, "local_port": 34226, "address": OLD},
         {"t0": T - 10.001, "t1": T - 9.99, "ok": True, "server": "db-primary", "conn": 1},
         {"t0": T + 0.02, "t1": T + 13.4, "ok": False, "error": "MYSQL_2013", "conn": 1},
         {"t0": T + 13.4, "t1": T + 18.41, "ok": False, "error": "MYSQL_2003", "conn": 2, "address": OLD},
         {"connected": T + 18.42, "conn": 3, "local_port": 51438, "address": NEW},
         {"t0": T + 18.41, "t1": T + 18.43, "ok": True, "server": "db-replica", "conn": 3}]
ZOO = [{"connecting": T - 12, "host": "localhost", "address": "127.0.0.1"},
       {"t0": T - 12, "t1": T - 11.9, "ok": False, "error": "CommunicationsException", "conn": 0},
       {"connecting": T - 10, "host": "db.lab", "address": OLD},
       {"connected": T - 9.99, "conn": 1, "local_port": 40000, "driver": "mysql-connector-j 8.4.0"},
       {"t0": T + 0.05, "t1": T + 13.4, "ok": False, "error": "CommunicationsException", "conn": 1},
       {"connecting": T + 13.41, "host": "db.lab", "address": OLD},
       {"t0": T + 13.41, "t1": T + 15.42, "ok": False, "error": "CommunicationsException", "conn": 1},
       {"connecting": T + 15.43, "host": "db.lab", "address": NEW},
       {"connected": T + 15.44, "conn": 2, "local_port": 40002, "driver": "mysql-connector-j 8.4.0"}]


def text(records):
    return "".join(json.dumps(r) + "\n" for r in records)


def test_a_driver_that_moves_on_to_its_next_host_tried_the_first_until_then():
    listed = [{"connecting": T + 13.41, "host": "db-primary.lab", "address": OLD},
              {"connecting": T + 15.42, "host": "db-replica.lab", "address": NEW},
              {"connected": T + 15.43, "conn": 2, "local_port": 40002, "driver": "mysql-connector-j 8.4.0"}]
    first, second = attempts(text(listed))
    assert (first.address, round(first.took_s, 2), first.error) == (OLD, 2.01, NEXT_HOST)
    assert (second.address, second.error) == (NEW, None)
    # Connector/J's failover proxy going back to its first host before a statement (every 50): the
    # statement waits the connect timeout out, then runs on the connection it had (dns-failover, 2026-12-05)
    retry = [{"t0": T + 20.324, "t1": T + 22.330, "ok": True, "server": "db-replica", "conn": 3},
             {"connecting": T + 20.328, "host": "db-primary.lab", "address": OLD}]
    [tried] = attempts(text(listed + [retry[1], retry[0]]))[2:]
    assert (tried.address, round(tried.took_s, 3), tried.error) == (OLD, 2.002, KEPT_ITS_CONNECTION)


def test_each_connect_is_read_with_its_address_cost_and_end_from_either_log():
    probe = attempts(text(PROBE))
    assert [a.address for a in probe] == [OLD, OLD, NEW] and [a.error for a in probe] == [None, "MYSQL_2003", None]
    assert round(probe[1].took_s, 2) == 5.01 and probe[2].started_t == T + 18.41
    zoo = attempts(text(ZOO))
    assert zoo[0] == Attempt(T - 12, "127.0.0.1", zoo[0].took_s, "CommunicationsException")     # its warm-up's
    assert [a.address for a in zoo[1:]] == [OLD, OLD, NEW] and zoo[2].error == "CommunicationsException"
    assert round(zoo[2].took_s, 2) == 2.01 and zoo[3].error is None


def test_a_dns_run_shows_each_cells_reconnects_and_a_vip_run_none(tmp_path):
    vip = report.render(write_run(tmp_path / "vip")).written
    assert "reconnects" not in vip["cells"][0] and vip["signals"].get("reconnects") is None
    run = RunDir.create("synthetic", {"control": "dns", "load": {"probe": {"proto": "mysql", "interval_ms": 100}},
                                      "cells": [{"tcp_retries2": 5}],
                                      "steps": [{"fault": "host_silent", "target": "db-primary"},
                                                {"fault": "dns_move", "to": "db-replica"}]}, results=tmp_path / "dns")
    run.write_text(run.probe_log("r5"), text(PROBE))
    events = [{"t": T, "source": "harness", "event": "fault", "started_t": T, "done_t": T + 0.2, "uncertainty_s": 0.03,
               "name": "host_silent", "params": {"target": "db-primary"}, "step": 0, "effect": {"kind": "blackhole"}},
              {"t": T + 16.6, "source": "harness", "event": "fault", "started_t": T + 16.4, "done_t": T + 16.62,
               "uncertainty_s": 0.003, "name": "dns_move", "params": {"to": "db-replica"}, "step": 1,
               "effect": {"kind": "none"}, "seen": {"old_address": OLD, "new_address": NEW}}]
    run.events_file.write_text("".join(json.dumps(e) + "\n" for e in events))
    summary = report.render(run).written
    [cell] = summary["cells"]
    assert [(a["at_s"], a["address"], a["error"]) for a in cell["reconnects"]] == [(13.4, OLD, "MYSQL_2003"),
                                                                                  (18.41, NEW, None)]
    assert summary["signals"]["reconnects"]["addresses"] == {OLD: "the old address", NEW: "db-replica (the new address)"}
    assert "5.0 s to the old address (MYSQL_2003)" in run.summary_md.read_text()


def test_a_client_that_logs_no_address_is_said_so_never_none():
    from harness.signals.reconnects import section
    summary = {"cells": [{"cell": "go", "reconnects": [{"at_s": 13.4, "address": None, "took_s": 0.01, "error": None}]}],
               "signals": {"reconnects": {"addresses": {OLD: "the old address"}}}}
    [row] = section.rows(summary)
    assert row[3] == section.NOT_LOGGED and "None" not in " ".join(row)


def test_a_libpq_host_list_that_failed_names_each_address_it_tried_in_order():
    """The probe's record of a libpq host-list connect that failed lists the addresses libpq's message
    named ("10.213.1.121, 10.213.1.122"); the page says what each was, in that order."""
    from harness.signals.reconnects import section
    listed = [{"t0": T + 13.4, "t1": T + 15.41, "ok": False, "error": "PG_READ_ONLY", "conn": 2,
               "address": f"{OLD}, {NEW}", "connect_t": T + 13.4},
              {"connected": T + 17.42, "conn": 3, "local_port": 51438, "address": NEW, "connect_t": T + 15.41,
               "host": "db-replica.lab"},
              {"t0": T + 15.41, "t1": T + 17.43, "ok": True, "server": "db-replica", "conn": 3}]
    failed, through = attempts(text(listed))
    assert (failed.address, failed.error, through.address, through.error) == (f"{OLD}, {NEW}", "PG_READ_ONLY", NEW, None)
    summary = {"cells": [{"cell": "libpq-host-list-read-write", "reconnects": [
        {"at_s": 13.4, "address": failed.address, "took_s": 2.01, "error": failed.error},
        {"at_s": 15.41, "address": NEW, "took_s": 2.02, "error": None}]}],
        "signals": {"reconnects": {"addresses": {OLD: "the old address", NEW: "db-replica (the new address)"}}}}
    [row] = section.rows(summary)
    assert row[2] == "2.0 s to the old address then db-replica (the new address) (PG_READ_ONLY)", row
