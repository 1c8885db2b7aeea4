"""A request the old server acknowledged and whose answer went with the flow: ss sees nothing
left to resend (ss_log.nothing_unacked_after), and the run's table says 'lost answer'."""
from harness.measure import ss_log, summary_record
from harness.report import tables

IDLE = "ESTAB 0 0 10.213.5.128:41000 10.213.5.10:3306 timer:(keepalive,119min,0)\n\t rto:204\n"
RESENDING = "ESTAB 0 70 10.213.5.128:41000 10.213.5.10:3306 timer:(on,400ms,1)\n\t rto:408 backoff:1\n"


def samples(*blocks):
    return ss_log.parse("".join(f"@ {t}\n{text}" for t, text in blocks))


def test_a_connection_that_stays_without_a_retransmission_timer_has_nothing_unacked():
    assert ss_log.nothing_unacked_after(samples((99.0, RESENDING), (100.5, IDLE), (103.0, IDLE)), 100.0)


def test_a_retransmission_or_too_short_a_look_is_not_that():
    assert not ss_log.nothing_unacked_after(samples((100.5, RESENDING), (103.0, IDLE)), 100.0)
    assert not ss_log.nothing_unacked_after(samples((100.5, IDLE), (101.5, IDLE)), 100.0)
    assert not ss_log.nothing_unacked_after([], 100.0)


def cell(name, error=None, lost=False):
    probe = {"detect_s": None if error is None else 0.1, "recover_s": None, "error": error, "server_after": None,
             "within_window": error is not None, "never_worked": None}
    if lost:
        probe["waits_for_a_lost_answer"] = True
    return {"cell": name, "probe": probe, "predicted": {"expected_s": 0.2, "earliest_s": 0.0, "latest_s": 0.7}}


def test_the_table_names_a_lost_answer_and_says_what_it_means():
    summary = summary_record.read({"scenario": "s", "run": "r", "cells": [cell("defaults", "MYSQL_2013"),
                                                                         cell("retries2-5", lost=True), cell("quiet")]})
    errors = [row[5] for row in tables.failover_rows(summary)]
    assert errors == ["MYSQL_2013", tables.LOST_ANSWER, "—"]
    note = tables.lost_answer_note(summary)
    assert note.startswith("lost answer (retries2-5):") and "read timeout" in note
    assert tables.lost_answer_note(summary_record.read({"scenario": "s", "run": "r",
                                                        "cells": [cell("defaults", "MYSQL_2013")]})) == ""
