"""aws_deregister, an operator's deregistration from an emulated AWS NLB, without a lab: its
params as AWS documents them (deregistration_delay.timeout_seconds 0-3600 s, default 300;
connection_termination.enabled false for TCP), what its flows see, and where a scenario may use it."""
import pytest

from harness.faults.aws_deregister import AwsDeregister
from harness.measure.effects import NONE, RESET
from harness.report import expectation as explain
from harness.scenario import ScenarioError, load


def deregister(**params):
    return {"steps": [{"fault": "aws_deregister", "target": "db-primary", **params}]}


def test_aws_defaults_and_ranges():
    parsed, _ = load("aws-nlb-deregistration", deregister())
    params = dict(parsed.steps[0].params)
    assert params["delay_s"] == 300.0 and params["connection_termination"] is False
    with pytest.raises(ScenarioError, match="AWS takes 0-3600 s"):
        load("aws-nlb-deregistration", deregister(delay_s=3601))
    with pytest.raises(ScenarioError, match="true or false"):
        load("aws-nlb-deregistration", deregister(connection_termination="yes"))
    load("aws-nlb-deregistration", deregister(delay_s=0))           # 0: no drain at all


def test_terminated_flows_are_reset_after_the_delay_kept_ones_notice_nothing_of_it():
    terminated = AwsDeregister(None, target="db-primary", delay_s=20.0, connection_termination=True).effect()
    assert terminated.kind == RESET and terminated.after_s == 20.0
    assert AwsDeregister(None, target="db-primary", delay_s=20.0, connection_termination=False).effect().kind == NONE
    assert AwsDeregister(None, target="db-replica", delay_s=0.0, connection_termination=False).unchecked() == {"db-replica"}


def test_only_an_aws_nlb_takes_a_deregistration():
    with pytest.raises(ScenarioError, match=r"steps\[0\]: aws_deregister acts on directors run by aws-nlb"):
        load("lvs-switchover", deregister())


def test_the_plan_counts_from_the_death_of_a_target_no_check_looks_at_any_more():
    kept, _ = load("aws-nlb-deregistration")
    line = explain.expectation(kept)
    # the deregistered target is not checked: no health check resets its flows, each kernel decides
    assert line.startswith("silent_kill (blackhole)") and "aws-nlb's own model" not in line, line
    died, _ = load("control-aws-nlb-failover")
    assert "aws-nlb's own model" in explain.expectation(died)
    terminated, _ = load("aws-nlb-deregistration-reset")
    assert explain.expectation(terminated).startswith("aws_deregister (reset)")
