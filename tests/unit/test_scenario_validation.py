"""Scenario files are validated on load; every error names the file and the field."""
import copy
import re

import pytest
import yaml

from harness import scenario
from tests.cli.nothing_started import run_without_docker
from harness.scenario import ScenarioError

GOOD = {
    "description": "test",
    "load": {"sysbench": {"tables": 1}, "probe": {"proto": "mysql"}},
    "cells": [{"tcp_retries2": 5}, {"tcp_retries2": 3, "read_timeout_s": "2s"}],
    "warmup_s": 5,
    "steps": [{"fault": "ipvs_swap", "old": "db-primary", "new": "db-replica"},
              {"wait": "250ms"}, {"fault": "app_hang", "target": "db-replica"}, {"heal": "app_hang"}],
    "observe_s": "1m",
}


def bad(path, value):
    raw = copy.deepcopy(GOOD)
    *parents, last = path
    node = raw
    for key in parents:
        node = node[key]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    return raw


DELETE = object()

MALFORMED = [
    (bad(["colour"], "blue"), "colour: unknown key"),
    (bad(["load", "sysbench", "tabels"], 2), "load.sysbench.tabels: unknown key"),
    (bad(["cells"], DELETE), "cells: at least one cell is needed"),
    (bad(["cells", 0, "keepalive"], "5/1"), "cells[0].keepalive: IDLE/INTERVAL/PROBES"),
    (bad(["cells", 0, "tcp_user_timeout_ms"], -1), "cells[0].tcp_user_timeout_ms: must be between"),
    (bad(["matrix"], {"tcp_retries2": 5}), "matrix.tcp_retries2: must be a non-empty list"),
    (bad(["matrix"], {"colour": [1]}), "matrix.colour: unknown knob"),
    (bad(["matrix"], {"tcp_retries2": [3, 0]}), "matrix(tcp_retries2=0).tcp_retries2: must be between"),
    (bad(["cells"], []), "cells: at least one cell"),
    (bad(["cells", 0, "tcp_retries2"], "five"), "cells[0].tcp_retries2: must be an integer"),
    (bad(["cells", 0, "tcp_retries2"], 0), "cells[0].tcp_retries2: must be between 1 and 255"),
    (bad(["cells", 1, "read_timeout_s"], "soon"), "cells[1].read_timeout_s: not a duration"),
    (bad(["cells", 1, "name"], "Bad Name"), "cells[1].name"),
    (bad(["cells", 1, "waited_for"], "no"), "cells[1].waited_for: must be true or false, not 'no'"),
    (bad(["cells"], [{"tcp_retries2": 5}, {"tcp_retries2": 5}]), "cells: two cells are named 'r5'"),
    (bad(["warmup_s"], -3), "warmup_s: a duration cannot be negative"),
    (bad(["observe_s"], True), "observe_s: a duration, not True"),
    (bad(["steps", 0, "fault"], "meteor"), "steps[0].fault: unknown fault 'meteor'"),
    (bad(["steps", 0, "old"], DELETE), "steps[0].old: required by fault ipvs_swap"),
    (bad(["steps", 0, "nodest"], "explode"), "steps[0].nodest: must be one of drop, reset"),
    (bad(["steps", 0, "new"], "mysql-tertiary"), "steps[0].new: unknown server 'mysql-tertiary'"),
    (bad(["steps", 0, "old"], "mysql-primary"), "unknown server 'mysql-primary' (servers: db-primary, db-replica, web-a, web-b; "
                                                "mysql-primary is now called db-primary)"),
    (bad(["steps", 0, "drain_s"], "5 minutes"), "steps[0].drain_s: not a duration"),
    (bad(["steps", 1], {"wait": 1, "fault": "app_hang"}), "steps[1]: a step is one of"),
    (bad(["steps", 3], {"heal": "silent_kill"}), "steps[3].heal: no earlier fault step injects 'silent_kill'"),
    (bad(["steps"], [{"wait": 3}]), "steps: at least one fault step"),
    (bad(["load", "probe", "proto"], "smtp"), "load.probe.proto: must be one of mysql, http"),
    (bad(["load"], "sysbench"), "load: must be a mapping"),
    (bad(["datapath"], "ebpf"), "datapath: must be one of auto, ipvs, nftables"),
    (bad(["namespaces"], "vm"), "namespaces: must be one of container, netns"),
    # Found by hand (issue 12): each crashed or was accepted before.
    (bad(["steps", 0, "fault"], ["ipvs_swap"]), "steps[0].fault: unknown fault ['ipvs_swap']"),
    (bad(["warmup_s"], float("nan")), "warmup_s: must be a finite number, not nan"),
    (bad(["observe_s"], float("inf")), "observe_s: must be a finite number, not inf"),
    (bad(["observe_s"], 10**400), "observe_s: must be a finite number"),
    (bad(["warmup_s"], 1e9), "warmup_s: at most 3600 s"),
    (bad(["load", "probe", "interval_ms"], float("nan")), "load.probe.interval_ms: must be a finite number"),
    (bad(["steps", 0, "new"], "db-primary"), "steps[0]: old and new are both db-primary"),
    (bad(["steps", 0, "new"], "web-b"), "steps[0]: web-b does not serve mysql"),
    (bad(["steps", 2, "target"], {"a": 1}), "steps[2].target: unknown server"),
    (bad(["cells", 0], ["tcp_retries2", 5]), "cells[0]: must be a mapping, not list"),
]


def test_the_reference_scenario_is_valid():
    parsed = scenario.parse(GOOD, "x.yaml", "x")
    assert [c.name for c in parsed.cells] == ["r5", "r3-rt2"]
    assert parsed.cells[1].read_timeout_s == 2.0
    assert parsed.steps[1].seconds == 0.25 and parsed.observe_s == 60


@pytest.mark.parametrize("raw, message", MALFORMED, ids=[m for _, m in MALFORMED])
def test_malformed_scenario_is_rejected_naming_file_and_field(raw, message):
    with pytest.raises(ScenarioError) as error:
        scenario.parse(raw, "scenarios/broken.yaml", "broken")
    assert str(error.value).startswith("scenarios/broken.yaml: ")
    assert message in str(error.value)


@pytest.mark.parametrize("scenario_id", scenario.available())
def test_every_shipped_scenario_is_valid(scenario_id):
    parsed, _ = scenario.load(scenario_id)
    assert parsed.id == scenario_id and parsed.kind in ("failover", "burst")


def test_a_matrix_is_the_product_of_its_knobs_and_shares_containers_by_sysctls():
    raw = {**GOOD, "cells": [], "matrix": {"tcp_retries2": [3, 5], "tcp_user_timeout_ms": [0, 5000],
                                            "read_timeout_s": [0, 5]}}
    parsed = scenario.parse(raw, "m.yaml", "m")
    assert len(parsed.cells) == 8
    assert {c.namespace for c in parsed.cells} == {"r3", "r5"}
    names = [c.name for c in parsed.cells]
    assert "r5-ut5000-rt5" in names and "r3" in names and len(set(names)) == 8
    ut = next(c for c in parsed.cells if c.name == "r3-ut5000")
    assert ut.socket_env() == {"SOCKOPT_TCP_USER_TIMEOUT_MS": "5000"}


def test_a_cell_is_waited_for_unless_it_says_otherwise():
    first, second = scenario.parse({**GOOD, "cells": [{"tcp_retries2": 5}, {"tcp_retries2": 15, "waited_for": False}]},
                                   "w.yaml", "w").cells
    assert first.waited_for and not second.waited_for and second.name == "r15"


def test_keepalive_socket_options():
    raw = {**GOOD, "cells": [{"tcp_retries2": 5, "keepalive": "5/1/3", "idle_s": 30}]}
    [cell] = scenario.parse(raw, "k.yaml", "k").cells
    assert cell.name == "r5-ka5-1-3-idle" and cell.idle_s == 30
    assert cell.socket_env() == {"SOCKOPT_KEEPALIVE": "1", "SOCKOPT_KEEPIDLE": "5", "SOCKOPT_KEEPINTVL": "1",
                                 "SOCKOPT_KEEPCNT": "3"}


def test_overrides_from_make_reach_every_cell():
    parsed, _ = scenario.load("lvs-switchover", {"TCP_RETRIES2": "5", "WARMUP_S": "3"})
    assert {c.knob("tcp_retries2") for c in parsed.cells} == {5}
    assert parsed.warmup_s == 3 and parsed.cells[0].name == "r5"


def test_cells_are_containers_unless_the_scenario_or_make_asks_for_network_namespaces():
    assert scenario.parse(GOOD, "g.yaml", "g").cell_namespaces == "container"
    assert scenario.parse({**GOOD, "namespaces": "netns"}, "g.yaml", "g").cell_namespaces == "netns"
    parsed, _ = scenario.load("matrix-short", {"NAMESPACES": "netns"})
    assert parsed.cell_namespaces == "netns"


def test_unknown_scenario_lists_the_known_ones():
    with pytest.raises(ScenarioError, match="no such scenario .*lvs-switchover"):
        scenario.load("nope")


def test_cli_exits_2_with_the_message_and_starts_nothing(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(yaml.safe_dump(bad(["steps", 0, "nodest"], "explode")))
    result, docker_calls = run_without_docker(["run", str(broken)], tmp_path)
    assert result.returncode == 2
    assert f"{broken}: steps[0].nodest: must be one of drop, reset" in result.stderr
    assert docker_calls == []


def test_a_partition_names_client_containers_not_cells():
    raw = {**GOOD, "cells": [{"tcp_retries2": 5, "read_timeout_s": 2}],
           "steps": [{"fault": "iptables_drop", "a": "client-r5", "b": "director"}]}
    assert scenario.parse(raw, "p.yaml", "p").steps[0].params[0] == ("a", "client-r5")
    raw["steps"][0]["a"] = "client-r5-rt2"
    with pytest.raises(ScenarioError, match=r"steps\[0\].a: unknown node 'client-r5-rt2'"):
        scenario.parse(raw, "p.yaml", "p")


def test_a_file_that_is_not_utf8_is_named_not_a_traceback(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("description: caf\xe9\n".encode("latin-1"))
    with pytest.raises(ScenarioError, match=r"latin1.yaml: not UTF-8 text \(byte 16 is 0xe9\)"):
        scenario.load(str(path))


def test_the_tcp_retries2_override_reaches_matrix_cells_too():
    parsed, _ = scenario.load("matrix-short", {"TCP_RETRIES2": "7"})
    assert {c.knob("tcp_retries2") for c in parsed.cells} == {7}


@pytest.mark.parametrize("target, overrides, message", [
    ("backlog-overflow", {"WARMUP_S": "5"}, "WARMUP_S: a burst scenario has no warmup_s"),
    ("lvs-switchover", {"TCP_RETRIES2": "five"}, "TCP_RETRIES2: must be a whole number, not 'five'"),
    ("lvs-switchover", {"WARMUP_S": "nan"}, "WARMUP_S: must be a finite number"),
    ("lvs-switchover", {"OBSERVE_S": "1e9"}, "OBSERVE_S: at most 7200 s"),
    ("lvs-switchover", {"LINK_DELAY_MS": "fast"}, "LINK_DELAY_MS: must be a number, not 'fast'"),
])
def test_an_override_that_does_not_apply_or_is_malformed_is_refused(target, overrides, message):
    with pytest.raises(ScenarioError, match=re.escape(message)):
        scenario.load(target, overrides)
