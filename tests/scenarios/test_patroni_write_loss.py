"""Patroni's own failover and acknowledged writes (scenarios/patroni-write-loss.yaml): the replica
cut off for 5 s, then the primary dies silently and Patroni promotes the replica by itself.
Asynchronous replication loses writes the primary acknowledged during the cut; Patroni's
synchronous_mode (REPLICATION=sync) loses none. The accounting is checked against the promoted
server's own rows, read with psql inside it after the run, and Patroni's promotion against its log.
Minutes each: `make test-slow`."""
import io

import pytest

from harness import scenario
from harness.databases import DATABASES
from harness.lab import ComposeLab, LabRequest, labelled_leftovers
from harness.pipeline import run_and_report
from tests.scenarios.test_write_loss import RATE_PER_S, lost_by_the_servers_rows, seqs_held

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("write-loss")]


@pytest.mark.parametrize("mode", ["async", "sync"])
def test_patronis_promotion_loses_acknowledged_writes_only_without_synchronous_mode(tmp_path, mode):
    parsed, raw = scenario.load("patroni-write-loss", {"REPLICATION": mode})
    out = io.StringIO()
    run = run_and_report(parsed, raw, results=tmp_path, out=out, keep_lab=True)
    print(out.getvalue())
    lab = ComposeLab(LabRequest(project=run.lab_project(), database=DATABASES["postgres"]()))
    try:
        summary = run.summary()
        new = seqs_held(lab, "db-replica")
    finally:
        lab.down()
    assert labelled_leftovers(project=run.lab_project())["containers"] == []
    data, promotion = summary["signals"]["data"], summary["signals"]["lb"]["promotion"]
    assert promotion["by"] == "Patroni" and promotion["server"] == "db-replica", promotion
    assert data["new_primary"] == "db-replica" and data["replication"] == mode, data
    attempts, lost = lost_by_the_servers_rows(run, data, new, f"patroni {mode} (promoted {promotion['promoted_s']} s "
                                                              "after the death)")
    assert any(r["outcome"] == "ack" and r.get("server") == "db-replica" for r in attempts), \
        "no write acknowledged by the promoted replica"
    if mode == "async":
        faults = {e["name"]: e for e in run.events() if e.get("event") == "fault"}
        cut_off_s = faults["silent_kill"]["done_t"] - faults["replication_cut"]["started_t"]
        assert 1 <= len(lost) <= RATE_PER_S * cut_off_s + 1, (len(lost), cut_off_s)
    else:
        assert lost == [] and data["attempts"]["in_doubt"] >= 1, data
