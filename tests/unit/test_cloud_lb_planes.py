"""The cloud load balancers' emulations without a lab: their documented defaults and what each
does to a dead target's flows, the checker's spec they write, their change read back from the
checker's log, and their markdown model."""
import json

import pytest

from harness.control import control_plane
from harness.control.cloud_lb import KEPT, RESET
from harness.databases import database
from harness.lab import REPO, planned_addresses
from harness.measure.effects import BLACKHOLE, Effect
from harness.scenario import ScenarioError, load

# a line the checker (images/director/cloud-lb-checker) writes, as docker logs --timestamps keeps it
CHANGE_LINE = ('2026-11-29T07:40:12.500000000Z cloud-lb aws-nlb: target 10.213.2.21:3306 unhealthy: '
               '10.213.1.10:3306 now 10.213.2.22:3306, existing flows reset '
               '{"applying_t": 1795938012.41, "applied_t": 1795938012.43, "datapath": "nftables"}')


class Run:
    def __init__(self, text):
        self.text = text

    def service_log(self, service):
        return service

    def read(self, path):
        return self.text if path == "director" else ""


@pytest.mark.parametrize("name, settings, flows, timers", [
    ("aws-nlb", (), RESET, (30.0, 10.0, 2)),
    ("aws-nlb", (("connection_termination", False),), KEPT, (30.0, 10.0, 2)),
    ("gcp-passthrough", (), KEPT, (5.0, 5.0, 2)),
    ("gcp-passthrough", (("persistence_on_unhealthy", "NEVER_PERSIST"),), RESET, (5.0, 5.0, 2)),
    ("azure-standard", (), KEPT, (15.0, 15.0, 1)),
])
def test_each_provider_keeps_or_resets_a_dead_targets_flows_as_documented(name, settings, flows, timers):
    plane = control_plane(name, settings)
    assert plane.existing_flows() == flows and plane.timers() == timers
    assert plane.lab_settings()["LB_EXPIRE_NODEST_CONN"] == ("1" if flows == RESET else "0")
    [(service, definition)] = plane.services(planned_addresses(), database(), ("db-primary", "db-replica")).items()
    spec = json.loads(definition["environment"]["CLOUD_LB"])
    assert service == "director" and spec["nodest"] == ("reset" if flows == RESET else "drop")
    assert spec["source"] and [s[1].endswith(".21:3306") for s in spec["services"]] == [True]
    by_model = plane.effect_by_model(Effect(BLACKHOLE), "director")
    assert (by_model is not None) == (flows == RESET)


def test_the_change_is_read_from_the_checkers_log_at_lbctls_own_landing_time():
    plane = control_plane("aws-nlb", (("interval", 5.0), ("timeout", 2.0)))
    [change] = plane.changes(Run(CHANGE_LINE))
    assert (change.t, change.uncertainty_s, change.backend) == (1795938012.41, 0.02, "10.213.2.21:3306")
    assert plane.change_for("director", [change], 3306, change.t - 10) is change
    reset = plane.effect_on(Effect(BLACKHOLE), "director", [change], change.t - 9.0)
    assert (reset.reset_at_s, reset.reset_by_s) == (9.0, 9.02)
    kept = control_plane("gcp-passthrough").effect_on(Effect(BLACKHOLE), "director", [change], change.t - 9.0)
    assert kept == Effect(BLACKHOLE)


def test_the_emulators_own_lag_is_read_from_the_checkers_log_and_moves_the_models_latest():
    """A busy CI machine's checker landed its change 12.63 s after the death with the model's fixed
    allowance ending at 12.5 s: the lag its own log measures (deciding check's scheduled end to
    lbctl's landing) stands in for that allowance."""
    plane = control_plane("gcp-passthrough", (("interval", 5.0), ("timeout", 2.0)))
    line = CHANGE_LINE.replace('"datapath": "nftables"}', '"datapath": "nftables", "check_due_end_t": 1795938011.76}')
    [change] = plane.changes(Run(line))
    assert change.took_s == 0.65
    window = plane.lb_noticed(change, change.t - 12.63)
    assert (window.earliest_s, window.latest_s) == (7.0, 12.75) and "0.65 s after" in window.basis
    [unstamped] = plane.changes(Run(CHANGE_LINE))       # a checker from before: the fixed allowance
    assert unstamped.took_s is None and plane.lb_noticed(unstamped, 0).latest_s == 12.5


def test_the_markdown_model_counts_the_checks_schedule():
    window = control_plane("aws-nlb", (("interval", 5.0), ("timeout", 2.0))).markdown()
    assert (window.earliest_s, window.latest_s) == (7.0, 12.5)      # (2-1) x 5 + 2, plus up to one interval late
    assert control_plane("aws-nlb").markdown().earliest_s == 40.0   # the defaults: 30 + 10


def test_a_timeout_longer_than_the_interval_is_refused():
    with pytest.raises(ScenarioError, match="control.aws-nlb: timeout 20 s is longer than interval 10 s"):
        load("control-aws-nlb-failover", {"control": {"aws-nlb": {"interval": 10, "timeout": 20}}})
    with pytest.raises(ScenarioError, match="persistence_on_unhealthy"):
        load("control-gcp-failover", {"control": {"gcp-passthrough": {"persistence_on_unhealthy": "X"}}})


@pytest.mark.parametrize("name, settings, idle, forgotten", [
    ("aws-nlb", (), "350", "reset"),                 # AWS: 350 s by default, a RST for a packet after it
    ("aws-nlb", (("idle_timeout", 60.0),), "60", "reset"),
    ("azure-standard", (), "240", "drop"),           # Azure: 4 min, dropped without a word ...
    ("azure-standard", (("tcp_reset", True),), "240", "reset"),     # ... unless TCP reset is on
])
def test_an_idle_flow_is_forgotten_after_the_providers_idle_timeout_and_met_as_documented(name, settings, idle,
                                                                                          forgotten):
    lab = control_plane(name, settings).lab_settings()
    assert (lab["LB_IDLE_TIMEOUT"], lab["LB_FORGOTTEN_FLOWS"], lab["LB_CONNTRACK_LOOSE"]) == (idle, forgotten, "0")


def test_gcps_idle_handling_is_not_emulated():
    assert "LB_IDLE_TIMEOUT" not in control_plane("gcp-passthrough").lab_settings()


@pytest.mark.parametrize("override, message", [
    ({"lb": {"idle_timeout_s": 20}}, "lb: asks LB_IDLE_TIMEOUT=20, but control: aws-nlb starts the director with 60"),
    ({"steps": [{"fault": "lb_idle_timeout", "seconds": 30}]}, "steps: asks LB_IDLE_TIMEOUT=30"),
    ({"control": {"azure-standard": {"idle_timeout": 240}}, "datapath": "auto",
      "steps": [{"fault": "lb_idle_timeout", "seconds": 240}]},
     "emulated on the nftables datapath only"),
    ({"control": {"aws-nlb": {"idle_timeout": 30}}}, "idle_timeout"),     # AWS's minimum is 60 s
])
def test_a_scenario_cannot_ask_the_director_for_what_the_provider_decides(override, message):
    with pytest.raises(ScenarioError, match=message):
        load("cloud-idle-timeout", override)


@pytest.mark.parametrize("name", ["aws-nlb", "gcp-passthrough", "azure-standard"])
def test_every_setting_a_plane_starts_the_lab_with_is_one_compose_passes_on(name):
    """A variable compose.yaml (or compose.ipvs.yaml) never reads would be dropped without a word."""
    compose = "".join((REPO / f).read_text() for f in ("compose.yaml", "compose.ipvs.yaml"))
    for setting in (("idle_timeout", 300.0), ("tcp_reset", True)):
        settings = (setting,) if setting[0] in control_plane(name).settings_spec else ()
        for key in control_plane(name, settings).lab_settings():
            assert "${" + key + ":-" in compose, f"{name}: {key} reaches no container"
