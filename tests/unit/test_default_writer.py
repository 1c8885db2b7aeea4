"""A failover through the database counts what it did to writes unless told not to: a writer by
default, `load.writer: off` or WRITER=0 for none, no writer where the probe does not speak MySQL."""
import copy

import pytest

from harness import scenario
from harness.scenario import ScenarioError
from harness.scenario.loads import DEFAULT_WRITER_RATE

FAILOVER = {
    "description": "test",
    "load": {"probe": {"proto": "mysql"}},
    "cells": [{"tcp_retries2": 5}],
    "steps": [{"fault": "ipvs_swap", "old": "db-primary", "new": "db-replica"}],
    "observe_s": "1m",
}


def parsed(load, overrides=None):
    raw = copy.deepcopy(FAILOVER)
    raw["load"].update(load)
    if overrides:
        from harness.scenario.files import OVERRIDES
        for name, value in overrides.items():
            OVERRIDES[name](raw, name, value)
    return scenario.parse(raw, "test.yaml")


def test_a_failover_through_the_database_has_a_writer_unasked():
    writer = parsed({}).writer
    assert writer.rate_per_s == DEFAULT_WRITER_RATE and writer.by_default


def test_one_asked_for_is_not_by_default():
    writer = parsed({"writer": {"rate_per_s": 20}}).writer
    assert writer.rate_per_s == 20 and not writer.by_default


@pytest.mark.parametrize("load, overrides", [({"writer": False}, None), ({}, {"WRITER": "0"}),
                                             ({"writer": {"rate_per_s": 20}}, {"WRITER": "0"})])
def test_off_and_writer_0_leave_it_out(load, overrides):
    assert parsed(load, overrides).writer is None


def test_writer_n_sets_the_rate_even_after_off():
    writer = parsed({"writer": False}, {"WRITER": "7"}).writer
    assert writer.rate_per_s == 7 and not writer.by_default


def test_no_writer_unasked_where_the_probe_speaks_http_but_one_asked_for_is_refused():
    assert parsed({"probe": {"proto": "http"}}).writer is None
    with pytest.raises(ScenarioError, match="load.writer: writes go to the database"):
        parsed({"probe": {"proto": "http"}, "writer": {"rate_per_s": 2}})


def test_a_misspelled_writer_setting_is_an_error_not_the_default():
    with pytest.raises(ScenarioError, match="load.writer"):
        parsed({"writer": {"rate": 2}})
