"""A cloud load balancer's idle timeout as its provider documents it (scenarios/cloud-idle-timeout.yaml):
AWS NLB resets a flow idle past its timeout at the flow's next packet; Azure Standard drops it
without a word, or resets it with tcp_reset on. The bounds come from the timeout the scenario gives
the provider, from the probe's own log of its idle period (another process than the director), and
for the silent drop from docs/facts/kernel.md's tcp_retries2=5 row (tests/kernel_facts.py). Minutes
each (AWS's shortest idle timeout is 60 s, Azure's 4 min): `make test-slow`."""
import pytest

from harness.measure import probe_log
from harness.store import RunDir
from tests.kernel_facts import assert_within, blackhole_bounds
from tests.scenarios.conftest import cells

pytestmark = pytest.mark.slow
AZURE = {"cells": [{"name": "idle", "tcp_retries2": 5, "idle_s": 250},
                   {"name": "idle-keepalive", "tcp_retries2": 5, "keepalive": "60/5/3", "idle_s": 250},
                   {"name": "busy", "tcp_retries2": 5}],
         "steps": [{"fault": "lb_idle_timeout", "seconds": 240}], "observe_s": 290}
PROVIDERS = {"aws-nlb": ({}, 60, "reset"),
             "azure-standard": ({"control": {"azure-standard": {"idle_timeout": 240}}, **AZURE}, 240, "drop"),
             "azure-standard-tcp-reset": ({"control": {"azure-standard": {"idle_timeout": 240, "tcp_reset": True}},
                                           **AZURE}, 240, "reset")}
RESET_ARRIVES_S = 0.5            # the request out at the idle period's end (a probe interval), the RST back


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_an_idle_flow_is_forgotten_after_the_providers_timeout_and_met_as_documented(run_scenario, provider):
    overrides, timeout_s, forgotten = PROVIDERS[provider]
    summary, path = run_scenario("cloud-idle-timeout", warmup_s=5, **overrides)
    run, by_name = RunDir(path), cells(summary)
    t_fault = summary["fault"]["t"]
    start, end = probe_log.idle_period(run.read(run.probe_log("idle")))
    assert end - start >= timeout_s, (start, end)           # idle past the provider's timeout
    idle = by_name["idle"]["probe"]
    waited = idle["detect_s"] - (end - t_fault)             # from the first request after the idle period
    if forgotten == "reset":
        assert 0 <= waited <= RESET_ARRIVES_S, idle
    else:
        assert_within(waited, blackhole_bounds(5, 0.1), f"{provider}: the silently dropped request")
    assert idle["recover_s"] is not None, "the idle client did not reconnect"
    for name in ("idle-keepalive", "busy"):                 # keepalive and traffic keep the flow known
        assert by_name[name]["probe"]["error"] is None, (name, by_name[name]["probe"])
