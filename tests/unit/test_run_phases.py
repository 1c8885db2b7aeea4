"""Where a run's wall time went: measure/run_phases.py over a run's events and summary, and the
benchmarks' breakdown around it."""
from harness.bench import wall_breakdown
from harness.measure import run_phases


def harness(event, t, **fields):
    return {"source": "harness", "event": event, "t": t, **fields}


EVENTS = [harness("lab_starting", 100.0), harness("lab_up", 102.0),
          {"source": "r5/probe", "event": "operation", "t": 103.0},
          harness("loads_ready", 104.0),
          harness("fault", 105.1, started_t=105.0, done_t=105.2),
          harness("fault", 105.2, started_t=105.2, done_t=105.5),
          harness("observe_end", 119.0),
          harness("cleanup_step", 119.0, step="undoing faults", started_t=119.0, took_s=0.1),
          harness("cleanup_step", 120.0, step="stopping the clients", started_t=119.1, took_s=0.9),
          harness("cleanup_step", 120.0, step="keeping the logs", started_t=119.1, took_s=0.4),
          harness("cleanup_step", 121.0, step="taking the lab down", started_t=120.0, took_s=1.0)]
SUMMARY = {"cells": [{"probe": {"recover_s": 13.4}}, {"probe": {"recover_s": 3.0}}]}


def test_the_phases_follow_the_events_and_the_last_client_back():
    phases = dict(run_phases.phases(EVENTS, SUMMARY))
    assert phases["lab up"] == 2.0 and phases["clients start until each answered"] == 2.0
    assert phases["warm-up"] == 1.0 and phases["faults applied"] == 0.5
    # the last client was back 13.4 s after the first fault took effect (its t, 105.1)
    assert phases["observing until the last client was back"] == round(105.1 + 13.4 - 105.5, 3)
    assert phases["observing after that (grace, polling)"] == round(119.0 - 118.5, 3)
    # side by side steps are one group, as long as its longest step
    assert phases["cleanup: stopping the clients | keeping the logs"] == 0.9
    assert run_phases.cleanup_end_t(EVENTS) == 121.0


def test_a_client_that_never_came_back_leaves_the_observation_in_one_piece():
    phases = dict(run_phases.phases(EVENTS, {"cells": [{"probe": {"recover_s": None}}]}))
    assert phases["observing"] == 13.5 and "observing after that (grace, polling)" not in phases


def test_the_benchmark_breakdown_adds_up_to_the_wall_time():
    breakdown = wall_breakdown(EVENTS, SUMMARY, 99.5, 122.0)
    assert breakdown[0] == ("before the lab (scenario, run directory)", 0.5)
    assert breakdown[-1] == ("report (summary, charts, page)", 1.0)
    # nothing double-counted: the gaps between phases (observe_end to the first step, 0) are all
    assert abs(sum(seconds for _, seconds in breakdown) - (122.0 - 99.5)) < 1e-6
