"""The replay's failover built from an incident's folder, and its ranking read from a summary."""
from pathlib import Path

import pytest

from harness import imports, scenario
from harness.replay import build, ranking
from harness.replay.page import render, terminal

SHORT = Path(__file__).resolve().parents[1] / "replay_incident"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "incident-0312"


def test_the_operators_cell_and_the_cures_in_the_models_order_behind_their_keepalived():
    planned = build.plan(imports.from_dir(str(SHORT)))
    parsed = scenario.parse_definition(planned.definition, "replay", "replay")
    assert planned.series == "6.12" and "a guest booting Debian's 6.12" in planned.lines[0]
    names = [cell.name for cell in parsed.cells]
    # the model's order: the pair (a read timeout behind a director that resets), TCP_USER_TIMEOUT (it
    # ends the reconnects into the dead server too), the reset, the read timeout alone (its reconnects
    # wait out the probe's 5 s connect limit); keepalive, which the model says saves nothing on a busy
    # connection, ranked but not run
    assert names == ["yours", "pair", "user-timeout-3000ms", "director-reset", "read-timeout-3s"]
    assert names[1:] + ["keepalive-5-1-3"] == [row.cure.name for row in planned.ranking.rows]
    assert any(line.startswith("not run: SO_KEEPALIVE 5/1/3") for line in planned.lines)
    assert planned.definition["load"]["probe"]["interval_ms"] == 100      # PyMySQL: the light probe
    yours = parsed.cells[0]
    assert yours.client == "pymysql" and yours.read_timeout_s == 0
    assert dict(yours.sysctls) == {"tcp_retries2": 5}           # the others are the kernel's defaults
    assert dict(parsed.control_settings)["delay_loop"] == 2 and dict(parsed.control_settings)["retry"] == 1
    cures = {cell.name: cell for cell in parsed.cells[1:]}
    assert cures["read-timeout-3s"].read_timeout_s == 3 and cures["user-timeout-3000ms"].tcp_user_timeout_ms == 3000
    assert cures["director-reset"].director == "reset" and "tcp_retries2=8: not below yours (5)" in " ".join(planned.lines)
    assert cures["pair"].director == "reset" and cures["pair"].read_timeout_s == 3
    # tcp_retries2=5 ends the operator's own wait at ~13.4 s: the run waits it out
    assert planned.waited_out and 13.4 < parsed.observe_s < 60
    assert all(cell.waited_for for cell in parsed.cells)


def test_a_vendor_kernel_gets_the_nearest_series_said_in_a_line():
    assert build.kernel_for("6.18.44-fc-v857")[0] == "6.12"
    assert build.kernel_for("6.1.0-28-amd64") == ("6.1", "kernel 6.1.0-28-amd64: a guest booting Debian's 6.1 "
                                                          "(this host lacks IPVS)")
    assert build.kernel_for("4.19.0-20-amd64")[0] == "5.10" and build.kernel_for(None)[0] == "6.12"
    planned = build.plan(imports.from_dir(str(EXAMPLE)))
    assert "Linux 6.12 does not have it (since 6.15)" in " ".join(planned.lines)


def cell(name, detect, back, earliest, latest, inside=True):
    return {"cell": name, "predicted": {"expected_s": (earliest + latest) / 2, "earliest_s": earliest, "latest_s": latest},
            "probe": {"detect_s": detect, "recover_s": back, "error": "MYSQL_2013", "within_window": inside},
            "lb": {"noticed_s": 3.1, "model": {"earliest_s": 1.0, "latest_s": 5.5}} if name == "yours" else {}}


def test_the_cures_are_ranked_by_the_time_they_saved():
    summary = {"observed_s": 60, "cells": [cell("yours", 18.0, 18.4, 17.0, 19.5), cell("read-timeout-3s", 3.1, 3.5, 3, 3.4),
                                          cell("keepalive-5-1-3", 18.1, 18.6, 17, 19.5),
                                          cell("director-reset", 3.6, 4.0, 3.2, 5.9, inside=False)]}
    replay = {"cures": [{"name": n, "change": n, "cost": "c"} for n in ("keepalive-5-1-3", "director-reset",
                                                                          "read-timeout-3s")],
              "incident": {"recovered": 19.0}}
    ranked = ranking.rank(summary, replay)
    assert [r.cell for r in ranked.cures] == ["read-timeout-3s", "director-reset", "keepalive-5-1-3"]
    assert [r.saved_s for r in ranked.cures] == [14.9, 14.4, -0.2]
    assert ranked.headline() == ("Your clients hung 18.4 s (model 17.0-19.5 s for the error, your incident 19 s); "
                                 "the load balancer noticed at 3.1 s (model 1.0-5.5 s).")
    assert "3.2-5.9 s!" in terminal(ranked)


def test_a_cure_late_on_a_saturated_machine_says_so_in_the_ranking():
    late = cell("read-timeout-3s", 4.6, 5.0, 3.0, 3.7, inside=False)
    late["machine"] = {"busy_while_waiting": 0.9, "busy_while_late": 0.99, "saturated": True}
    early = cell("director-reset", 3.1, 3.3, 3.2, 5.9, inside=False)          # early: not the machine's doing
    early["machine"] = {"busy_while_waiting": 1.0, "saturated": True}
    summary = {"observed_s": 60, "cells": [cell("yours", 18.0, 18.4, 17.0, 19.5), late, early]}
    replay = {"cures": [{"name": n, "change": n, "cost": "c"} for n in ("read-timeout-3s", "director-reset")]}
    ranked = ranking.rank(summary, replay)
    assert {r.cell: r.busy_while_late for r in ranked.cures} == {"read-timeout-3s": 0.99, "director-reset": None}
    text = terminal(ranked)
    assert "3.0-3.7 s!" in text and "CPU busy while they were late (read-timeout-3s 99%)" in text
    assert "director-reset 100%" not in text


def test_a_cell_late_by_its_report_only_names_its_kernels_end_in_the_ranking(tmp_path):
    late = cell("retries2-5", 15.3, 60.3, 13.3, 14.4, inside=False)
    late["kernel"] = {"gave_up_s": [13.89, 14.0], "in_window": True, "reported_after_s": 1.34}
    summary = {"observed_s": 120, "cells": [cell("yours", 18.0, 18.4, 17.0, 19.5), late]}
    ranked = ranking.rank(summary, {"cures": [{"name": "retries2-5", "change": "tcp_retries2=5", "cost": "c"}]})
    assert ranked.cures[0].kernel_in_window == (14.0, 1.34)
    written = render(tmp_path / "replay.html", ranked, {"folder": "x"}, "index.html").read_text()
    assert "14.4 s (outside, its kernel gave up in time, at 14.0 s; reported 1.3 s after it)" in written
    assert "Reported late, ended in time (retries2-5 +1.3 s)" in terminal(ranked)


def test_the_operators_cell_still_waiting_is_shown_so_with_its_ladder_and_saved_against_the_model(tmp_path):
    yours = {"cell": "yours", "predicted": {"expected_s": 936.0, "earliest_s": 928.9, "latest_s": 948.2},
             "probe": {"detect_s": None, "recover_s": None, "error": None, "within_window": None},
             "ladder": {"rungs": [], "in_model": True, "seen": 9},
             "lb": {"noticed_s": 42.9, "model": {"earliest_s": 11.0, "latest_s": 71.5}}}
    summary = {"observed_s": 125, "cells": [yours, cell("pair", 3.1, 9.0, 3.0, 3.2)]}
    replay = {"yours": {"error": {"expected_s": 935.9, "earliest_s": 928.9, "latest_s": 948.2},
                        "back": {"expected_s": 936.0, "earliest_s": 928.9, "latest_s": 949.2}},
              "cures": [{"name": "pair", "change": "socketTimeout=3000 + keepalived: delay_loop 5", "cost": "c",
                         "back": {"expected_s": 8.1, "earliest_s": 8.0, "latest_s": 14.1}}]}
    ranked = ranking.rank(summary, replay)
    assert ranked.yours.still_waiting and ranked.saved_against_model
    assert ranked.cures[0].saved_s == 927.0 and ranked.cures[0].model_back == (8.1, 8.0, 14.1)
    assert ranked.headline().startswith("Your clients were still waiting when the run ended, 125 s after the death "
                                        "(the model: their error after ~935.9 s, 928.9-948.2 s; 9 retransmissions so "
                                        "far, each where the model's ladder puts them")
    text = terminal(ranked)
    assert "still waiting" in text and "counted against the model's figure" in text
    assert "nothing yet; 9 retransmissions on the model&#x27;s ladder" in render(tmp_path / "r.html", ranked, {"folder": "x"},
                                                                             "index.html").read_text()


DEFAULTS = Path(__file__).resolve().parents[2] / "examples" / "incident-defaults"


def test_behind_a_jvm_the_cures_that_change_nothing_of_the_driver_run_the_probe_with_its_timeouts():
    planned = build.plan(imports.from_dir(str(DEFAULTS)))
    parsed = scenario.parse_definition(planned.definition, "replay", "replay")
    by_name = {cell.name: cell for cell in parsed.cells}
    jvms = {name for name, cell in by_name.items() if cell.client == "jdbc"}
    assert jvms == {"yours", "pair", "read-timeout-3s"}                 # the driver's own cures, and yours
    for name in set(by_name) - jvms:                                     # Connector/J's timeouts at their 0
        assert by_name[name].client == "pymysql" and by_name[name].read_timeout_s == 0, name
        assert by_name[name].connect_timeout_s == 0, name
    assert by_name["retries2-5"].knob("tcp_retries2") == 5 and by_name["user-timeout-3000ms"].tcp_user_timeout_ms == 3000
    assert planned.definition["load"]["probe"]["interval_ms"] == 250 and not planned.waited_out
    assert any("run the lab's probe with its read and connect timeouts" in line for line in planned.lines)
    # it watches until the last cure the model ranks ahead of yours has ended: the read timeout alone,
    # whose reconnect waits out the SYN retries (131 s on 6.12), not your cell's ~936 s
    assert 140 < parsed.observe_s < 200
    # the run ends once the others are back: yours, and faster checks in front of a client that still
    # waits out tcp_retries2=15 (~938 s), are not waited for
    assert {name for name, cell in by_name.items() if not cell.waited_for} == {"yours", "keepalived-fast-checks"}


def test_the_probes_connect_timeout_is_the_probes_knob_only():
    with pytest.raises(scenario.ScenarioError, match="connect_timeout_s: a knob of the lab's own probe"):
        scenario.parse_definition({"load": {"probe": {"proto": "mysql"}}, "cells": [{"client": "jdbc", "connect_timeout_s": 3}],
                                   "steps": [{"fault": "silent_kill", "target": "db-primary"}]}, "x", "x")


def test_a_cell_whose_model_expects_no_error_is_said_so_not_given_a_zero_window(tmp_path):
    """Behind a proxy that ACKs (HAProxy at its defaults) the model expects no error within the run:
    its window is 'none', where the ranking once printed a made-up 0.0-0.0 s."""
    behind_a_proxy = {"cell": "yours", "predicted": {"expected_s": None, "basis": "the proxy ACKs"},
                      "probe": {"detect_s": None, "recover_s": None, "error": None, "within_window": None}}
    ranked = ranking.rank({"observed_s": 60, "cells": [behind_a_proxy, cell("pair", 3.1, 9.0, 3.0, 3.2)]},
                          {"cures": [{"name": "pair", "change": "timeout server 3s", "cost": "c"}]})
    assert ranked.yours.model is None and ranked.cures[0].model == (3.0, 3.2)
    assert "0.0-0.0" not in ranked.headline() and "model none for the error" in ranked.headline()
    text = terminal(ranked)
    assert "0.0-0.0" not in text and " none " in text.splitlines()[3]
    page = render(tmp_path / "r.html", ranked, {"folder": "x"}, "index.html").read_text()
    assert "0.0-0.0" not in page and ">none<" in page
