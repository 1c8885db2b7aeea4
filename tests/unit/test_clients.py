"""Cells that name a client: validation of its settings, what the model takes from them, and what
measurement reads from a client's log beyond detect/recover."""
import json

import pytest

from harness.load.clients import CLIENTS, Client
from harness.measure.effects import Effect
from harness.measure import recovery, summary_record
from harness.signals.probe import client_log
from harness.measure.predict import predict
from harness.report import client_grid
from harness.scenario import ScenarioError, parser
from harness.settings import SettingsError

STEPS = [{"fault": "silent_kill", "target": "db-primary"}]


def cell(**raw):
    return parser.parse({"load": {"probe": {}}, "cells": [raw], "steps": STEPS}).cells[0]


def test_a_drivers_own_timeout_becomes_the_cells_application_timeout():
    assert cell(client="jdbc", jdbc={"socketTimeout": 3000}).read_timeout_s == 3.0
    assert cell(go={"readTimeout": "1500ms"}).read_timeout_s == 1.5       # the client is implied
    assert cell(client="libmariadb", libmariadb={"MYSQL_OPT_READ_TIMEOUT": 2}).read_timeout_s == 2.0
    assert cell(client="hikari", hikari={"keepaliveTime": 30000}).read_timeout_s == 0.0


@pytest.mark.parametrize("raw, message", [
    ({"client": "zig"}, "cells[0].client: must be one of"),
    ({"client": "jdbc", "go": {"readTimeout": "2s"}}, "cells[0].go: settings for go, but the cell's client is jdbc"),
    ({"client": "go", "go": {"readTimeout": "2 s"}}, "cells[0].go.readTimeout: a duration like"),
    ({"client": "jdbc", "jdbc": {"socketTimeout": "3000"}}, "cells[0].jdbc.socketTimeout: must be an integer"),
    ({"client": "jdbc", "jdbc": {"sockettimeout": 3000}}, "cells[0].jdbc.sockettimeout: unknown key"),
    ({"client": "node", "read_timeout_s": 3}, "cells[0].read_timeout_s: a knob of the lab's own probe"),
    ({"client": "hikari", "hikari": {"connectionTimeout": 10}}, "between 250 and"),
    ({"client": "jdbc", "jdbc": [1]}, "cells[0].jdbc: must be a mapping"),
])
def test_bad_client_settings_are_refused_naming_the_field(raw, message):
    with pytest.raises(ScenarioError, match=message.replace("[", r"\[").replace("]", r"\]")):
        cell(**raw)


def test_sysbench_as_a_client_runs_on_the_tables_of_load_sysbench_and_keeps_the_sysbench_switch():
    scenario = parser.parse({"load": {"probe": {}, "sysbench": {}},
                             "cells": [{"client": "sysbench", "tcp_retries2": 5}, {"tcp_retries2": 5, "sysbench": False}],
                             "steps": STEPS})
    on_sysbench, probe = scenario.cells
    assert on_sysbench.client == "sysbench" and not scenario.runs_sysbench(on_sysbench)
    assert probe.client == "pymysql" and not probe.sysbench      # `sysbench: false` is the switch, not a client
    assert on_sysbench.read_timeout_s == 0.0
    with pytest.raises(ScenarioError, match="runs on the tables of load.sysbench"):
        parser.parse({"load": {"probe": {}}, "cells": [{"client": "sysbench"}], "steps": STEPS})
    with pytest.raises(ScenarioError, match=r"cells\[0\].sysbench: the cell's client is sysbench already"):
        parser.parse({"load": {"probe": {}, "sysbench": {}}, "cells": [{"client": "sysbench", "sysbench": True}],
                      "steps": STEPS})


def test_a_zoo_client_that_names_no_process_to_stop_it_by_is_refused_where_it_is_defined():
    with pytest.raises(ValueError, match="client zoo-x: runs zoo-x and names no process to stop it by"):
        Client("zoo-x", "zoo-x", "a library")
    assert all(CLIENTS[name].stop_pattern for name in CLIENTS if CLIENTS[name].program)
    with pytest.raises(ValueError, match="client pymysql runs as the lab's own probe"):
        CLIENTS["pymysql"].stop_pattern


def test_zoo_clients_need_the_mysql_probe_protocol():
    with pytest.raises(ScenarioError, match="a database driver"):
        parser.parse({"load": {"probe": {"proto": "http"}}, "cells": [{"client": "go"}],
                      "steps": [{"fault": "silent_kill", "target": "web-a"}]})


def test_preloaded_socket_options_do_not_count_for_a_client_that_bypasses_libc():
    blackhole = Effect("blackhole")
    through_libc = predict(cell(client="node", tcp_retries2=5, tcp_user_timeout_ms=5000), blackhole, 0.1, 0.0)
    go = predict(cell(client="go", tcp_retries2=5, tcp_user_timeout_ms=5000), blackhole, 0.1, 0.0)
    plain = predict(cell(client="go", tcp_retries2=5), blackhole, 0.1, 0.0)
    assert through_libc.expected_s < 6 < go.expected_s == plain.expected_s
    assert "bypass libc" in go.basis


def lines(*records):
    return "\n".join(json.dumps(r) for r in records) + "\nlibsockopts: fd 9: TCP_USER_TIMEOUT=5000 (kernel reads back 5000)\n"


T = 100.0
POOL_LOG = lines(
    {"connected": 90.0, "conn": 1, "local_port": 40000, "driver": "mysql-connector-j 8.4.0"},
    {"t0": 99.9, "t1": 99.91, "ok": True, "server": "db-primary", "conn": 1},
    {"t0": 100.05, "t1": 103.05, "ok": False, "error": "CommunicationsException", "detail": "Communications link failure",
     "conn": 1},
    {"t0": 103.1, "t1": 106.1, "ok": False, "error": "CommunicationsException", "detail": "again", "conn": 1},
    {"t0": 106.2, "t1": 106.3, "ok": False, "error": "SQLTransientConnectionException", "detail": "timeout", "conn": 0},
    {"connected": 106.5, "conn": 2, "local_port": 40002, "driver": "mysql-connector-j 8.4.0"},
    {"t0": 106.4, "t1": 106.6, "ok": True, "server": "db-replica", "conn": 2},
)


def test_a_pool_handing_out_a_dead_connection_again_is_counted_and_failed_borrows_are_not():
    from harness.measure import probe_log
    ops = probe_log.parse(POOL_LOG)
    entry = client_log.client_entry(POOL_LOG, ops, T, recovery.probe_outcome(ops, T))
    assert entry["driver"] == "mysql-connector-j 8.4.0"
    assert entry["saw"] == "CommunicationsException: Communications link failure"
    assert entry["dead_connections_handed_out"] == 1
    assert entry["reconnect_s"] == pytest.approx(6.6 - 3.05)
    assert entry["socket_options_applied"] == {"TCP_USER_TIMEOUT": 5000}


IDLE_POOL_LOG = lines(
    *({"connected": 90.0 + n, "conn": n, "local_port": 40000 + n, "driver": "mysql-connector-j 8.4.0"} for n in (1, 2, 3)),
    {"t0": 99.9, "t1": 99.91, "ok": True, "server": "db-primary", "conn": 1},
    {"t0": 100.05, "t1": 113.0, "ok": False, "error": "CommunicationsException", "detail": "link failure", "conn": 1},
    {"connected": 113.05, "conn": 4, "local_port": 40004, "driver": "mysql-connector-j 8.4.0"},
    {"t0": 113.1, "t1": 126.0, "ok": False, "error": "CommunicationsException", "detail": "link failure", "conn": 2},
    {"t0": 126.1, "t1": 126.2, "ok": True, "server": "db-replica", "conn": 4},
    {"t0": 126.3, "t1": 126.4, "ok": False, "error": "SQLException", "detail": "a query error", "conn": 4},
)


def test_an_idle_pooled_connection_the_fault_caught_counts_once_handed_out_after_the_first_error():
    from harness.measure import probe_log
    ops = probe_log.parse(IDLE_POOL_LOG)
    # conn 2 was opened before the fault and failed after the application knew: counted;
    # conn 4 was opened after the fault, its first failure is not a dead connection handed out.
    assert client_log.dead_connections_handed_out(IDLE_POOL_LOG, ops, T) == 1


def summary_cell(name, client, knobs, detect, recover):
    return {"cell": name, "knobs": {"read_timeout_s": 0.0, "tcp_user_timeout_ms": 0, "keepalive": None, **knobs},
            "probe": {"detect_s": detect, "recover_s": recover, "stall_s": detect, "error": "X"},
            "predicted": {"expected_s": 13.9},
            **({"client": {"name": client, "settings": {"socketTimeout": 3000} if knobs.get("read_timeout_s") else {},
                           "driver": f"{client} 1.0"}} if client else {})}


def test_the_grid_has_a_row_per_client_and_a_column_per_setting():
    written = {"scenario": "s", "run": "r", "cells": [
        summary_cell("p-def", None, {}, 13.6, 13.7),
        summary_cell("j-def", "jdbc", {}, 13.7, 14.0),
        summary_cell("j-own", "jdbc", {"read_timeout_s": 3.0}, 3.01, 3.2),
        summary_cell("j-ut", "jdbc", {"tcp_user_timeout_ms": 5000}, 5.3, 5.5),
        summary_cell("j-hang", "jdbc", {"keepalive": "5/1/3"}, None, None),
    ]}
    summary = summary_record.read(written)
    columns, rows = client_grid.grid(summary)
    assert columns == ["defaults", "own timeout", "TCP_USER_TIMEOUT 5000 ms (socket option)", "keepalive 5/1/3"]
    assert list(rows) == ["pymysql", "jdbc"] and set(rows["pymysql"]) == {"defaults"}
    assert client_grid.colour(rows["jdbc"]["own timeout"]) == "#cfc"
    assert client_grid.colour(rows["jdbc"]["defaults"]) == "#ffd98a"
    assert client_grid.colour(rows["jdbc"]["keepalive 5/1/3"]) == client_grid.STUCK_RED
    assert "jdbc 1.0" in client_grid.html_table(summary)
    assert client_grid.grid(summary_record.read({**written, "cells": written["cells"][:1]})) is None


def test_settings_besides_the_read_timeout_get_a_column_of_their_own():
    pool = summary_cell("h-pool", "hikari", {}, 13.7, 23.9)
    pool["client"]["settings"] = {"maximumPoolSize": 3}
    unchecked = summary_cell("h-unchecked", "hikari", {}, 13.7, 39.4)
    unchecked["client"]["settings"] = {"maximumPoolSize": 3, "aliveBypassWindowMs": 3600000}
    own = summary_cell("h-own", "hikari", {"read_timeout_s": 3.0}, 3.0, 3.1)
    columns, rows = client_grid.grid(summary_record.read({"scenario": "s", "run": "r",
                                      "cells": [summary_cell("p", None, {}, 13.6, 13.7), pool, unchecked, own]}))
    assert columns == ["defaults", "hikari: maximumPoolSize=3", "hikari: maximumPoolSize=3 + aliveBypassWindowMs=3600000",
                       "own timeout"]
    assert rows["hikari"]["hikari: maximumPoolSize=3"].name == "h-pool" and rows["hikari"]["own timeout"].name == "h-own"


def test_explain_speaks_a_drivers_settings_and_refuses_ones_it_does_not_have():
    from harness.answer import explain
    text = explain.explain(explain.parse_knobs(["TCP_RETRIES2=5", "CLIENT=jdbc", "socketTimeout=3000"]))
    assert text.splitlines()[0].startswith("Answer: the application's socketTimeout=3000 ends a busy client's wait "
                                           "after about 3.0 s")
    forever = explain.explain(explain.parse_knobs(["CLIENT=jdbc", "socketTimeout=0"]))       # Connector/J: 0 is no limit
    assert forever.splitlines()[0].startswith("Answer: the kernel (tcp_retries2=15) ends a busy client's wait after "
                                              "about 938.0 s")
    for go_zero in ("readTimeout=0", "readTimeout=0s"):                   # go-sql-driver's default, both spellings
        assert "about 938.0 s" in explain.explain(explain.parse_knobs(["CLIENT=go", go_zero])).splitlines()[0]
    go = explain.explain(explain.parse_knobs(["TCP_RETRIES2=5", "CLIENT=go", "TCP_USER_TIMEOUT_MS=5000"]))
    assert "never reach its sockets" in go and "about 13." in go      # the tcp_retries2 budget, not 5 s
    with pytest.raises(SettingsError, match="socketTimeout is a setting of jdbc, mariadb-jdbc, aws-jdbc, hikari, pgjdbc, hikari-pgjdbc, not of go: give "
                       "CLIENT=jdbc"):
        explain.parse_knobs(["CLIENT=go", "socketTimeout=3000"])
    with pytest.raises(SettingsError, match="readTimeout='2x': go's readTimeout takes a duration"):
        explain.parse_knobs(["CLIENT=go", "readTimeout=2x"])
