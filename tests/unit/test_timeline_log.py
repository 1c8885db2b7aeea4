"""A log excerpt as the incident's timeline: the lines keepalived, HAProxy and the drivers write give
the moments, each shown with its line; the death, which no server logs, comes from a marked line
or from an incident.yaml beside it."""
import pytest

from harness import imports
from harness.errors import InvalidInput
from harness.imports import sniff, timeline_log

LOG = """\
Mar 12 03:12:41 lb-1 Keepalived_healthcheckers[812]: TCP connection to [10.20.1.21]:tcp:3306 timeout
Mar 12 03:13:07 lb-1 Keepalived_healthcheckers[812]: Removing service [10.20.1.21]:tcp:3306 from VS [10.20.0.10]:tcp:3306
2026-03-12T03:27:41.120Z ERROR o.h.e.j.s.SqlExceptionHelper - Communications link failure
2026-03-12T03:27:52.004Z ERROR o.h.e.j.s.SqlExceptionHelper - Communications link failure
"""


def test_the_moments_a_log_shows_are_read_from_their_lines_with_a_marked_death():
    found = timeline_log.parse("Mar 12 03:12:04 ops on-call: died\n" + LOG, "app.log")
    assert found.get("lb_changed") == 63 and found.get("first_error") == pytest.approx(937.12)
    assert found.lines()[0].startswith("app.log:3: lb-1 Keepalived_healthcheckers[812]: Removing service")
    assert found.lines()[1].startswith("app.log:4: ERROR o.h.e.j.s.SqlExceptionHelper - Communications link failure: "
                                       "2026-03-12T03:27:41.120Z")


def test_a_log_without_the_death_is_refused_saying_what_it_found():
    with pytest.raises(InvalidInput, match=r"app.log: the log shows lb_changed \(line 2\), first_error \(line 3\) but "
                                           r"not the death"):
        timeline_log.parse(LOG, "app.log")
    with pytest.raises(InvalidInput, match="no line the lab knows"):
        timeline_log.parse("03:00:01 started\n03:00:02 ready\n", "app.log")


def test_a_folder_with_a_timeline_and_a_log_takes_the_death_from_one_and_the_rest_from_the_other(tmp_path):
    (tmp_path / "incident.yaml").write_text('died: "2026-03-12T03:12:04Z"\n')
    (tmp_path / "lb-and-app.log").write_text(LOG)
    incident = imports.from_dir(str(tmp_path))
    assert sniff.kind(LOG)[0] == "incident.log"
    times = incident.incident_times
    assert times.get("lb_changed") == 63 and round(times.get("first_error")) == 937
    assert any(line.startswith(f"{tmp_path}/lb-and-app.log:3: ") for line in times.lines())


def test_log_lines_in_a_file_named_incident_yaml_are_read_as_the_log_they_are(tmp_path):
    (tmp_path / "incident.yaml").write_text("Mar 12 03:12:04 ops on-call: died\n" + LOG)
    incident = imports.from_dir(str(tmp_path))
    assert incident.incident_times.get("lb_changed") == 63
    assert f"{tmp_path}/incident.yaml: read as a log excerpt (a timeline) (incident.log), by its content" in incident.lines()
