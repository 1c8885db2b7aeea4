"""A silent death's output cut waits for the answers the server's kernel owes (faults/answers_out.py),
read from ss's own fields; the run page names the clients still waiting when its limit passed."""
from harness.faults import answers_out
from harness.measure import summary_record
from harness.report import tables

# `ss -HtinO state established sport = :3306` on a server listening on ::, as iproute2 6.1 prints it
SS = ("0      0      [::ffff:10.213.6.20]:3306 [::ffff:10.213.5.128]:41000 cubic wscale:7,7 rto:204 "
      "bytes_sent:900 bytes_received:300 lastsnd:12 lastrcv:40 lastack:12 rcv_space:14480\n"
      "0      0      [::ffff:10.213.6.20]:3306 [::ffff:10.213.6.21]:50000 cubic rto:204 lastsnd:5 lastrcv:3\n"
      "31     0      10.213.6.20:3306 10.213.5.129:41002 cubic rto:204 lastsnd:80 lastrcv:2\n")


def test_ss_lines_are_read_field_by_field():
    sockets = answers_out.server_sockets(SS)
    assert [s.peer for s in sockets] == ["10.213.5.128", "10.213.6.21", "10.213.5.129"]
    assert (sockets[0].recv_q, sockets[0].send_q, sockets[0].last_send_ms, sockets[0].last_receive_ms) == (0, 0, 12, 40)
    assert sockets[2].recv_q == 31


def socket(recv_q=0, send_q=0, last_send_ms=10, last_receive_ms=10):
    return answers_out.ServerSocket("10.0.0.2", recv_q, send_q, last_send_ms, last_receive_ms)


def test_a_request_not_read_or_not_answered_is_waiting():
    assert answers_out.is_waiting(socket(recv_q=31))
    assert answers_out.is_waiting(socket(last_send_ms=40, last_receive_ms=3))   # received after its last send


def test_an_answer_sent_after_the_last_request_or_unacknowledged_is_out():
    assert not answers_out.is_waiting(socket(last_send_ms=3, last_receive_ms=40))
    assert not answers_out.is_waiting(socket(send_q=120, last_send_ms=40, last_receive_ms=3))


def test_the_same_millisecond_counts_as_answered_and_is_named():
    same = socket(last_send_ms=7, last_receive_ms=7)
    assert not answers_out.is_waiting(same) and answers_out.is_same_ms(same)
    assert not answers_out.is_same_ms(socket(last_send_ms=3, last_receive_ms=40))


def test_the_other_servers_connections_are_not_counted():
    sockets = answers_out.client_sockets(answers_out.server_sockets(SS), {"10.213.6.21"})
    assert [s.peer for s in sockets] == ["10.213.5.128", "10.213.5.129"]
    assert sum(map(answers_out.is_waiting, sockets)) == 1


def test_each_server_is_waited_on_at_its_own_service_port():
    assert answers_out.service_port("db-primary") == 3306 and answers_out.service_port("web-a") == 80


def summary_with(seen):
    return summary_record.read({"scenario": "s", "run": "r", "cells": [],
                                "fault": {"event": "fault", "name": "silent_kill", "t": 1000.0,
                                          **({"seen": seen} if seen else {})}})


def test_the_page_names_clients_left_waiting_at_the_output_cut():
    seen = answers_out.AnswersOut(waited_s=1.02, waiting=2, same_ms=0).seen()
    note = tables.output_cut_note(summary_with(seen))
    assert "1.02 s after its input" in note and "1 s at most" in note and "2 client connection(s)" in note
    assert note in tables.run_notes(summary_with(seen))


def test_no_note_when_every_answer_was_out_or_the_fault_read_nothing():
    assert tables.output_cut_note(summary_with(answers_out.AnswersOut(0.04, 0, 1).seen())) == ""
    assert tables.output_cut_note(summary_with(None)) == ""
    assert tables.output_cut_note(summary_record.read({"scenario": "s", "run": "r", "cells": []})) == ""
