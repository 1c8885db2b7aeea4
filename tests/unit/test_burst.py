"""backlog-overflow's pure parts: spec validation, counters, connect bands, nginx log, SYN schedule."""
import pytest

from harness.measure import burst as results
from harness.measure.syn_model import syn_retransmit_times
from harness.scenario import ScenarioError
from harness.scenario import burst as spec

RAW = {"burst": {"connections": 10, "servers": {"web-a": {"backlog": 2, "syncookies": 0}}},
       "cells": [{"name": "small", "server": "web-a", "target": "upstream", "tcp_syn_retries": 2}]}


def test_a_burst_scenario_parses_and_carries_its_server_knobs_to_the_lab():
    parsed = spec.parse(RAW, "b.yaml", "b")
    assert parsed.cells[0].namespace == "syn2" and parsed.connections == 10
    env = parsed.lab_env()
    assert (env["WEB_A_BACKLOG"], env["WEB_A_SYNCOOKIES"], env["PROXY_CONNECT_TIMEOUT"]) == ("2", "0", "2s")


@pytest.mark.parametrize("raw, message", [
    ({**RAW, "cells": [{"name": "x", "server": "web-c"}]}, "cells[0].server: must be one of web-a, web-b"),
    ({**RAW, "cells": [{"name": "x", "server": "web-a", "target": "db"}]}, "cells[0].target"),
    ({**RAW, "burst": {"servers": {"web-z": {}}}}, "burst.servers.web-z: unknown server"),
    ({**RAW, "burst": {"connections": 0}}, "burst.connections: must be between 1 and 500"),
    ({**RAW, "burst": {"servers": {"web-a": {"abort_on_overflow": 2}}}}, "abort_on_overflow: must be one of 0, 1"),
])
def test_bad_burst_scenarios_name_the_field(raw, message):
    with pytest.raises(ScenarioError, match=message.replace("[", r"\[").replace("]", r"\]")):
        spec.parse(raw, "b.yaml", "b")


def test_nstat_deltas():
    before = results.parse_nstat("#kernel\nTcpExtListenOverflows 10 0.0\nTcpExtListenDrops 10 0.0\n")
    after = results.parse_nstat("#kernel\nTcpExtListenOverflows 25 0.0\nTcpExtListenDrops 26 0.0\n")
    deltas = results.counter_deltas(before, after)
    assert deltas["TcpExtListenOverflows"] == 15 and deltas["TcpExtListenDrops"] == 16


def test_connect_times_fall_in_retransmission_bands():
    connections = [{"connect_s": t} for t in (0.01, 1.01, 1.02, 3.0, 7.1)] + [{"connect_s": None}]
    assert results.connect_steps(connections) == {"0-0.5s": 1, "0.5-1.5s": 2, "2.5-3.5s": 1, "6-9s": 1}


def test_nginx_statuses_are_counted_per_cell_from_the_access_log():
    log = ('1.0 504 504 2.001 "/slow?cell=small-nginx"\n1.1 502 502 0.001 "/slow?cell=small-nginx"\n'
           '1.2 200 200 0.2 "/slow?cell=large-nginx"\n1.3 200 - 0.0 "/"\n')
    assert results.nginx_statuses(log, "small-nginx") == {"504": 1, "502": 1}
    assert results.nginx_statuses(log, "large-nginx") == {"200": 1}


def test_syn_retransmissions_with_and_without_linear_timeouts():
    assert syn_retransmit_times(0, 5) == [1, 3, 7, 15, 31]
    assert syn_retransmit_times(4, 8) == [1, 2, 3, 4, 5, 7, 11, 19]
