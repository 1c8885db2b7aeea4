"""An incident of a managed database's DNS failover, from the operator's own files: Amazon RDS's
failover events in a log excerpt (their messages as AWS's "Amazon RDS event categories and event
messages" gives them) or a `name_moved:` line give when the name moved; make explain answers
through the name's caches, with the JVM's TTL from the folder's java.security or flags; the replay,
which runs behind a VIP, refuses it by name."""
import pytest

from harness import imports
from harness.answer import explain
from harness.errors import InvalidInput
from harness.imports import timeline, timeline_log
from harness.replay import build

EVENTS = """\
2026-12-03 03:12:04 UTC died
2026-12-03 03:12:31 UTC RDS-EVENT-0073 Started cross AZ failover to DB instance: orders-2
2026-12-03 03:12:44 UTC app[311]: com.mysql.cj.jdbc.exceptions.CommunicationsException: Communications link failure
2026-12-03 03:12:58 UTC RDS-EVENT-0071 Completed failover to DB instance: orders-2
2026-12-03 03:13:40 UTC recovered
"""


@pytest.mark.parametrize("line", [
    "2026-12-03 03:12:58 UTC RDS-EVENT-0071 Completed failover to DB instance: orders-2",
    "2026-12-03T03:12:58Z orders Multi-AZ instance failover completed",
    "2026-12-03 03:12:58 UTC RDS-EVENT-0015 A Multi-AZ failover that resulted in the promotion of a standby "
    "instance is complete. It may take several minutes for the DNS to transfer to the new primary DB instance.",
    "2026-12-03 03:12:58 UTC RDS-EVENT-0049 A Multi-AZ failover has completed.",
])
def test_a_failovers_completion_is_when_the_name_moved_and_its_start_is_not(line):
    found = timeline_log.parse("2026-12-03 03:12:04 UTC died\n"
                               "2026-12-03 03:12:31 UTC RDS-EVENT-0072 Started same AZ failover to DB instance: x\n"
                               + line + "\n")
    assert found.after_death_s == (("name_moved", 54.0),)


def test_without_the_death_the_excerpt_is_refused_naming_where_the_failover_began():
    with pytest.raises(InvalidInput, match=r"not the death.*the failover started at 2026-12-03 03:12:31 UTC \(line 1\)"):
        timeline_log.parse(EVENTS.split("\n", 1)[1])


def test_a_written_timeline_names_the_move_as_operators_write_it():
    found = timeline.parse("died: '03:12:04'\ndns_updated: '03:12:31'\nrecovered: '03:13:40'\n")
    assert dict(found.after_death_s) == {"name_moved": 27.0, "recovered": 96.0}


def folder(tmp_path, files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return str(tmp_path)


def test_explain_answers_through_the_name_with_the_jvms_ttl_from_its_own_files(tmp_path):
    path = folder(tmp_path, {"events.log": EVENTS, "java.security": "networkaddress.cache.ttl=60\n",
                             "jvm.options": "-Dsun.net.inetaddr.ttl=5\n",
                             "driver.url": "jdbc:mysql://orders.cluster-x.rds.amazonaws.com:3306/shop?connectTimeout=2000\n"})
    incident = imports.from_dir(path)
    words = incident.explain_words()
    assert "DNS_MOVED_AFTER_S=54" in words and "networkaddress.cache.ttl=60" in words   # the security property wins
    values = explain.parse_knobs(words)
    assert values["QUESTION"].plane == "dns" and values["QUESTION"].name_moved_after_s == 54
    said = explain.beside_incident(values, incident.incident_times)
    assert "Your database's name moved 54 s after the death" in said and "Your load balancer" not in said


def test_a_driver_outside_the_jvm_takes_the_move_but_no_jvm_ttl(tmp_path):
    path = folder(tmp_path, {"events.log": EVENTS, "jvm.options": "-Dsun.net.inetaddr.ttl=5\n",
                             "driver.url": "user:pass@tcp(orders.cluster-x.rds.amazonaws.com:3306)/shop?timeout=2s\n"})
    words = imports.from_dir(path).explain_words()
    assert "DNS_MOVED_AFTER_S=54" in words and not any(w.startswith("networkaddress") for w in words)


def test_the_replay_refuses_a_name_that_moved_by_name(tmp_path):
    incident = imports.from_dir(folder(tmp_path, {"events.log": EVENTS}))
    with pytest.raises(InvalidInput, match="the database's name moved 54 s after the death"):
        build.plan(incident)
