"""Data accounting over a writer's log and the servers' ledgers (signals/data/ledger.py), and the
promoted replica found from a run's events (signals/data/)."""
import json

from harness.signals.data import ledger
from harness.signals.data import servers_after


def attempt(seq, outcome, n=1):
    return {"seq": seq, "attempt": n, "t0": 100.0 + seq, "t1": 100.1 + seq, "outcome": outcome}


WRITES = [attempt(1, "ack"), attempt(2, "ack"), attempt(3, "in_doubt"), attempt(3, "ack", 2),
          attempt(4, "in_doubt"), attempt(4, "in_doubt", 2), attempt(5, "failed"), attempt(5, "ack", 2),
          attempt(6, "failed"), attempt(7, "ack")]


def test_writer_lines_parse_and_a_line_cut_short_is_skipped():
    text = "\n".join(json.dumps(r) for r in WRITES[:2]) + '\n{"seq": 3, "att\n{"end": 200.0, "seqs": 3}\n'
    attempts, end = ledger.parse_writes(text)
    assert [r["seq"] for r in attempts] == [1, 2] and end == {"end": 200.0, "seqs": 3}


def test_ledger_text_and_an_unreadable_server():
    assert ledger.parse_ledger("1\t1\n3\t2\n") == {1: 1, 3: 2}
    assert ledger.parse_ledger("") == {}
    assert ledger.parse_ledger("# unreadable: container is not running\n") is None


def test_lost_in_doubt_committed_and_duplicates_from_what_the_new_primary_holds():
    # seq 2 acknowledged but missing (lost); 3 committed on its first, in-doubt, attempt and
    # again on the retry (a duplicate); 4 in doubt twice, one of them committed; 6 never written.
    new_primary = {1: 1, 3: 2, 4: 1, 5: 1, 7: 1}
    old_primary = {1: 1, 2: 1, 3: 1}
    result = ledger.account(WRITES, new_primary, old_primary)
    assert result["writes"] == 7 and result["acknowledged"] == 5 and result["in_doubt"] == 1
    assert result["attempts"] == {"ack": 5, "failed": 2, "in_doubt": 3}
    assert result["never_written"] == 1 and result["retried"] == 3
    assert result["lost"] == 1 and result["lost_seqs"] == [2]
    assert result["in_doubt_committed"] == 1
    assert result["duplicates"] == 1 and result["duplicate_seqs"] == [3]
    assert result["only_on_old_primary"] == [2] and result["unknown_rows"] == []


def test_nothing_is_judged_lost_when_the_new_primary_could_not_be_read():
    result = ledger.account(WRITES, None)
    assert result["read_back"] is False and "lost" not in result


def fault(name, params, **extra):
    return {"source": "harness", "event": "fault", "t": 1.0, "name": name, "params": params, **extra}


def test_the_promoted_replica_takes_the_writes_and_its_position_is_kept():
    events = [fault("ipvs_swap", {"service": "mysql", "old": "db-primary", "new": "db-replica"}),
              fault("promote_replica", {"target": "db-replica"}, seen={"position_at_promotion": "0-1-42"})]
    assert servers_after(events) == ("db-replica", "db-primary", "0-1-42")
    assert servers_after(events[:1]) == ("db-primary", None, None)


def test_a_control_plane_s_promotion_is_read_from_who_acknowledged_the_last_write():
    def attempt(seq, server, outcome):
        return {"seq": seq, "attempt": 1, "server": server, "outcome": outcome}
    before = [attempt(1, "db-primary", "ack"), attempt(2, "db-primary", "in_doubt")]
    refused = [attempt(3, "db-replica", "failed")]          # read-only: not promoted (yet)
    assert servers_after([], before + refused) == ("db-primary", None, None)
    after = before + refused + [attempt(4, "db-replica", "ack")]
    assert servers_after([], after) == ("db-replica", "db-primary", None)


def test_attempts_per_second_after_the_fault_with_the_lost_ones_marked():
    seconds = ledger.per_second(WRITES, [2], t_fault=102.5)
    assert seconds[0] == {"t": -2, "ack": 1, "failed": 0, "in_doubt": 0, "lost": 0}       # seq 1 at 101.0
    assert seconds[1] == {"t": -1, "ack": 1, "failed": 0, "in_doubt": 0, "lost": 1}       # seq 2 at 102.0, lost
    assert sum(s["in_doubt"] for s in seconds) == 3 and sum(s["failed"] for s in seconds) == 2


def test_semi_sync_counters_by_their_engine_neutral_names():
    mysql = "Rpl_semi_sync_source_no_times\t1\nRpl_semi_sync_source_no_tx\t84\nRpl_semi_sync_source_status\tOFF\n" \
            "Rpl_semi_sync_replica_status\tOFF\n"
    mariadb = "Rpl_semi_sync_master_no_times\t1\nRpl_semi_sync_master_no_tx\t84\nRpl_semi_sync_master_status\tOFF\n"
    assert ledger.parse_semi_sync(mysql) == ledger.parse_semi_sync(mariadb) == {"no_times": 1, "no_tx": 84,
                                                                                 "status": "OFF"}
    assert ledger.parse_semi_sync("# unreadable: gone\n") is None
