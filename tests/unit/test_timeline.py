"""incident.yaml as operators write it (harness/imports/timeline.py, timeline_clock.py): times as
logs write them, the keys they give the moments, and every refusal at its line."""
import pytest

from harness.errors import InvalidInput
from harness.imports import timeline

OPERATORS = """\
# from the on-call's notes
backend_died: 2026-03-12T03:12:04Z
lb_removed_backend: 2026-03-12T03:13:07Z
app_first_error: 2026-03-12T03:27:41.500Z
app_recovered: 2026-03-12T03:28:02Z
"""


def after(text):
    return dict(timeline.parse(text).after_death_s)


def test_an_operators_keys_and_iso_times_are_the_timelines_own():
    found = timeline.parse(OPERATORS, "incident.yaml")
    assert dict(found.after_death_s) == {"lb_changed": 63.0, "first_error": 937.5, "recovered": 958.0}
    assert found.lines()[0] == ("incident.yaml:3: lb_removed_backend: 2026-03-12T03:13:07Z: the load balancer changed "
                                "63 s after the death")


@pytest.mark.parametrize("died, recovered, seconds", [
    ("03:12:04", "03:28:02", 958),                                    # a time of day
    ("23:59:30", "00:00:30", 60),                                     # past midnight: the next day
    ("2026-03-12 03:12:04", "2026-03-12T03:28:02", 958),              # ISO, a space or a T
    ("2026-03-12T03:12:04+01:00", "2026-03-12T02:28:02Z", 958),       # zones: one instant each
    ("2026-03-12T03:12:04+0100", "2026-03-12T03:28:02", 958),         # a zone on one only: the other's
    ("2026-03-11T23:59:30Z", "2026-03-12T00:00:30Z", 60),             # across a date
    ("Mar 12 03:12:04", "Mar 12 03:28:02", 958),                      # syslog's, no year
    ("Mar 12 03:12:04", "2026-03-12T03:28:02Z", 958),                 # syslog's beside ISO: the year is ISO's
    ("03:12:04,250", "03:12:05", 0.75),                               # a comma before the fraction
])
def test_times_as_logs_write_them(died, recovered, seconds):
    assert after(f"died: {died}\nrecovered: {recovered}\n")["recovered"] == pytest.approx(seconds)


@pytest.mark.parametrize("text, says", [
    ("died: 03:12\napp_recoverd: 03:20\n", "incident.yaml:2: app_recoverd: not a moment the timeline "
                                                "knows; did you mean app_recovered (the timeline's `recovered`)?"),
    ("died: 03:12\nwhen: 03:20\n", "incident.yaml:2: when: not a moment the timeline knows (died, lb_changed,"),
    ("died: 03:12\nbackend_died: 03:13\n", "incident.yaml:2: backend_died: the same moment as `died` at line 1"),
    ("recovered: 03:20\n", "incident.yaml: no time of the death"),
    ("died: 03:12\nrecovered: 25:00\n", "incident.yaml:2: recovered: '25:00' is not a time"),
    ("died: 2026-02-30T03:12:00Z\n", "incident.yaml:1: died: '2026-02-30T03:12:00Z' is not a time"),
    ("died: 2026-03-12T03:12:04Z\nlb_changed: 2026-03-12T03:10:00Z\n",
     "incident.yaml:2: lb_changed: 2026-03-12T03:10:00Z is 124 s before the death"),
    ("died: 03:12:04\nfirst_error: 03:27:31\nrecovered: 03:27:00\n",
     "incident.yaml:3: recovered: 03:27:00 (896 s after the death) comes before the first error (first_error at line 2"),
    ("died: 03:12\nrecovered:\n", "incident.yaml:2: recovered: a time"),
    ("- died: 03:12\n", "incident.yaml: a mapping of moments to times"),
])
def test_what_it_refuses_is_said_at_its_line(text, says):
    with pytest.raises(InvalidInput) as refused:
        timeline.parse(text)
    assert says in str(refused.value), str(refused.value)


def test_seconds_after_the_death_still_count():
    assert after("died: 2026-03-12T03:12:04Z\nrecovered: 940\n") == {"recovered": 940.0}
