"""The outage in two on the page: a client that gave up before the LB's change is said in words
(keepalived's default timers: delay_loop 60 s, a 3 s read timeout), never as a negative time."""
from harness.signals.lb import section as lb_split


def summary(detect, back, noticed=45.2, by=45.9):
    lb = {"director": "director", "noticed_s": noticed, "noticed_by_s": by, "model": None, "within_model": None,
          "client_noticed_s": round(detect - by, 3), "client_noticed_from_s": round(detect - noticed, 3),
          "change": "removed db-primary"}
    return {"cells": [{"cell": "c", "lb": lb, "probe": {"detect_s": detect, "recover_s": back,
                                                          "server_after": "db-replica"}}]}


def test_a_client_that_gave_up_before_the_change_is_said_in_words():
    [row] = lb_split.rows(summary(3.1, 46.5))
    assert row[5] == "gave up 42.1 s before the LB's change; its reconnects met the dead server until the change, " \
                     "back 1.3 s after it"
    assert "-" not in row[5].split(";")[0]


def test_a_client_after_the_change_keeps_its_interval():
    [row] = lb_split.rows(summary(50.0, 50.4))
    assert row[5] == "4.10–4.80 s"


def test_an_error_inside_the_changes_own_span_starts_at_zero_not_minus_zero():
    """HAProxy's shutdown-sessions FIN: the client's error at 11.74 s, the markdown between 11.27 and
    11.74 s by the director's table and HAProxy's log (a run printed "-0.00–0.48 s")."""
    [row] = lb_split.rows(summary(11.74, 11.75, noticed=11.27, by=11.743))
    assert row[5] == "0.00–0.47 s"


def test_a_change_read_before_the_faults_own_stamp_is_shown_from_zero():
    """haproxy-failback's operator command: the director's table sampled still serving 0.11 s before
    the command's stamp, the change in place 0.01 s after it (a run printed "-0.11–0.01 s")."""
    [row] = lb_split.rows(summary(0.03, 0.13, noticed=-0.11, by=0.01))
    assert row[2] == "0.00–0.01 s"
