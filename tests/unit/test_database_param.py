"""A fault's param of kind `database` (faults/base.py Param) takes a database server and nothing
else, refused by the scenario's parser in one way for every fault that has one; a `server` param
still takes any server."""
import pytest

from harness import scenario
from harness.faults import FAULTS
from harness.scenario.parser import ScenarioError

DATABASE_PARAMS = sorted((name, param) for name, fault in FAULTS.items() for param, spec in fault.params.items()
                         if spec.kind == "database")


def parse(step):
    raw = {"load": {"probe": {}}, "cells": [{"tcp_retries2": 5}], "steps": [step]}
    return scenario.parse(raw, "s.yaml", "s")


def test_the_faults_that_act_on_a_database_say_so_in_their_params():
    assert {name for name, _ in DATABASE_PARAMS} >= {"read_only", "end_connections", "promote_replica",
                                                      "replication_cut", "dns_move"}


@pytest.mark.parametrize("fault, param", [p for p in DATABASE_PARAMS if p[0] != "dns_move"])
def test_a_web_server_given_for_a_database_is_refused_naming_the_databases(fault, param):
    with pytest.raises(ScenarioError, match=f"{param}: web-a is not a database \\(one of db-primary, db-replica\\)"):
        parse({"fault": fault, param: "web-a"})


def test_a_server_param_still_takes_a_web_server():
    parsed = parse({"fault": "silent_kill", "target": "web-a"})
    assert dict(parsed.steps[0].params)["target"] == "web-a"
