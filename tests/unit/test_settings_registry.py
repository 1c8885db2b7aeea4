"""The settings registry against what it stands for: the harness's own registries and ranges,
the Makefile's variables and goals, and every environment variable the harness reads."""
import re
from pathlib import Path

import pytest

from harness import scenario, topology
from harness.control import CONTROL_PLANES
from harness.databases import DATABASES
from harness.load.clients import CLIENTS, PROBE_NAMES
from harness.answer import explain
from harness.settings import KNOBS, SettingsError
from harness.settings.edge import FROM_MAKE
from harness.settings.registry import EVERY_GOAL, KEEPALIVED_WORDS

REPO = Path(__file__).resolve().parents[2]
MAKEFILE = (REPO / "Makefile").read_text()


def choices(name):
    return tuple(KNOBS[name].describe.split("|"))


def test_the_overrides_are_the_scenario_files_overrides():
    overrides = {name for name, knob in KNOBS.items() if "kernel-matrix" in knob.goals and name[0].isupper()} - {
        "KERNELS", "LAB_PROJECT"}
    assert overrides == set(scenario.OVERRIDES)


def test_choices_are_the_harness_registries():
    assert set(choices("DB_ENGINE")) == set(DATABASES)
    assert choices("LB_DATAPATH") == topology.DATAPATHS
    assert choices("NAMESPACES") == topology.CELL_NAMESPACES
    assert set(choices("REPLICATION")) == {m for engine in DATABASES.values() for m in engine.replication_modes}
    assert choices("CLIENT") == tuple(CLIENTS) + tuple(PROBE_NAMES)        # the probe, by its names on PostgreSQL
    assert set(KEEPALIVED_WORDS) == set(CONTROL_PLANES["keepalived"].settings_spec) - {"directors"}


@pytest.mark.parametrize("knob, setting", [("DELAY_LOOP", "delay_loop"), ("CONNECT_TIMEOUT", "connect_timeout"),
                                           ("RETRY", "retry"), ("DELAY_BEFORE_RETRY", "delay_before_retry")])
def test_explains_keepalived_ranges_are_keepalived_planes(knob, setting):
    spec = CONTROL_PLANES["keepalived"].settings_spec[setting]
    parse = KNOBS[knob].parse
    assert parse(f"{spec.minimum:g}", knob) == spec.minimum and parse(f"{spec.maximum:g}", knob) == spec.maximum
    for outside in (spec.minimum - 0.05, spec.maximum + 1):
        with pytest.raises(SettingsError):
            parse(f"{outside:g}", knob)


def test_explains_knobs_are_in_the_registry_for_explain():
    assert all("explain" in KNOBS[name].goals for name in explain.DEFAULTS)


def makefile_targets():
    return set(re.findall(r"^([a-z][a-z0-9-]*):", MAKEFILE, re.M))


def test_every_knob_names_goals_the_makefile_has():
    targets = makefile_targets()
    for knob in KNOBS.values():
        assert knob.goals == EVERY_GOAL or set(knob.goals) <= targets, knob.name


def test_every_variable_a_user_may_set_in_the_makefile_is_a_knob():
    user_set = set(re.findall(r"^([A-Za-z_][A-Za-z0-9_]*) \?=", MAKEFILE, re.M))
    assert user_set and user_set <= set(KNOBS), user_set - set(KNOBS)


def test_every_environment_variable_the_harness_reads_is_a_knob():
    read = set()
    for path in (REPO / "harness").rglob("*.py"):
        read |= set(re.findall(r"(?:environ(?:\.get)?\(?\[?|_get\()\"([A-Z][A-Z0-9_]+)\"", path.read_text()))
    assert {"KERNEL", "BLACKHOLE_CACHE", "GUEST_CPUS"} <= read      # the scan finds what it looks for
    assert read - FROM_MAKE <= set(KNOBS), read - FROM_MAKE - set(KNOBS)
