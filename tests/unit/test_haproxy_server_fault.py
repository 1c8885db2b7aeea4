"""haproxy_server, an operator's command on HAProxy's runtime API, without a lab: what it sends,
what it declares, and where a scenario may use it."""
import pytest

from harness.faults.haproxy_server import HaproxyServer, script
from harness.measure.effects import NONE, RESET
from harness.scenario import ScenarioError, load


def test_it_names_the_server_as_haproxy_cfg_does_and_stamps_the_commands():
    sent = script("db-replica", "drain", "shutdown")
    assert "set server mysql/standby state drain" in sent and "shutdown sessions server mysql/standby" in sent
    assert sent.count("date +%s.%N") == 2
    assert "shutdown sessions" not in script("web-a", "maint", "keep") and "web/primary" in script("web-a", "maint", "keep")


def test_only_shut_sessions_reach_the_clients():
    assert HaproxyServer(None, target="db-primary", state="maint", sessions="keep").effect().kind == NONE
    assert HaproxyServer(None, target="db-primary", state="maint", sessions="shutdown").effect().kind == RESET
    assert HaproxyServer.problem({"state": "ready", "sessions": "shutdown"})


def test_a_scenario_without_haproxy_cannot_use_it():
    step = {"fault": "haproxy_server", "target": "db-primary"}
    with pytest.raises(ScenarioError, match=r"steps\[0\]: haproxy_server acts on directors run by haproxy"):
        load("lvs-switchover", {"steps": [step]})
    parsed, _ = load("haproxy-switchover")
    assert parsed.steps[0].name == "haproxy_server"
