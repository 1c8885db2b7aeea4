"""keepalived as the control plane, without a lab: the keepalived.conf it generates, its timing
model against docs/facts/production.md's figures, its log read back, its knobs validated, and what its
removal does to a blackholed cell's window (docs/facts/kernel.md: expire_nodest_conn=1 resets at the
next packet the client sends)."""
import datetime

import pytest

from harness import scenario
from harness.control import control_plane
from harness.control.keepalived import parse_changes
from harness.control.keepalived_conf import config
from harness.control.keepalived_settings import KeepalivedSettings, lb_noticed
from harness.measure.effects import Effect
from tests.cli.nothing_started import run_without_docker
from harness.measure import kernel_model
from harness.measure.predict import predict
from harness.scenario import Cell, ScenarioError

LAB = KeepalivedSettings(delay_loop=2, connect_timeout=1, retry=1, delay_before_retry=1)
SERVERS = {"mysql": ("10.213.2.21", "10.213.2.22"), "web": ("10.213.2.31", "10.213.2.32")}
LOG = """\
2026-11-25T16:23:13.821719203Z Wed Nov 25 16:23:13 2026: Activating healthchecker for service [10.213.2.21]:tcp:3306 for VS [10.213.1.10]:tcp:3306
2026-11-25T16:30:07.295273825Z Wed Nov 25 16:30:07 2026: TCP_CHECK on service [10.213.2.21]:tcp:3306 failed after 1 retries.
2026-11-25T16:30:07.300414838Z Wed Nov 25 16:30:07 2026: Removing service [10.213.2.21]:tcp:3306 from VS [10.213.1.10]:tcp:3306
2026-11-25T16:30:07.468773934Z Wed Nov 25 16:30:07 2026: Adding sorry server [10.213.2.22]:tcp:3306 to VS [10.213.1.10]:tcp:3306
2026-11-25T16:30:08.371845283Z Wed Nov 25 16:30:08 2026: Disabling service [10.213.2.31]:tcp:80 of VS [10.213.1.14]:tcp:80
"""


def test_the_worst_case_is_production_facts_formula():
    # docs/facts/production.md section 1: delay_loop + (retry+1)*connect_timeout + retry*delay_before_retry;
    # keepalived's defaults give 71 s for TCP_CHECK, 61 s of it the delay_loop.
    defaults = lb_noticed(KeepalivedSettings())
    assert (defaults.earliest_s, round(defaults.latest_s - 0.5, 6)) == (11.0, 71.0)
    lab = lb_noticed(LAB)
    assert (lab.earliest_s, lab.expected_s, round(lab.latest_s - 0.5, 6)) == (3.0, 4.0, 5.0)


def test_the_main_director_promotes_the_replica_when_the_primary_goes_down():
    text = config(LAB, "director", "10.213.1.10", SERVERS)
    mysql = text[text.index("virtual_server 10.213.1.10 3306"):text.index("virtual_server 10.213.1.10 80")]
    assert "delay_loop 2\n" in mysql and "sorry_server 10.213.2.22 3306" in mysql
    assert 'notify_down "/usr/local/bin/lab-promote 10.213.2.22"' in mysql
    assert "TCP_CHECK {\n            connect_timeout 1\n            retry 1\n            delay_before_retry 1" in mysql
    web = text[text.index("virtual_server 10.213.1.10 80"):]
    assert "HTTP_GET" in web and "notify_down" not in web and "inhibit_on_failure" not in text
    assert "lab-promote" not in config(LAB, "director-reset", "10.213.1.13", SERVERS, promotes=False)


def test_a_mysql_check_is_a_handshake_script_and_inhibit_keeps_the_server_at_weight_0():
    text = config(KeepalivedSettings(check="mysql", inhibit_on_failure=True, connect_timeout=1), "d", "v", SERVERS)
    assert 'misc_path "/usr/local/bin/mysql-check 10.213.2.21 3306 1"' in text and "misc_timeout 2" in text
    assert text.count("inhibit_on_failure") == 2


def test_two_directors_share_the_vip_and_the_back_address_and_sync_their_connections_when_asked():
    settings = KeepalivedSettings(vrrp="sync")
    master = config(settings, "director", "10.213.1.10", SERVERS, (True, "10.213.1.10", "10.213.2.9", "10.213.1.12"))
    backup = config(settings, "director-backup", "10.213.1.10", SERVERS, (False, "10.213.1.10", "10.213.2.9",
                                                                           "10.213.1.11"))
    assert "state MASTER" in master and "priority 150" in master and "10.213.1.12" in master
    assert "state BACKUP" in backup and "priority 100" in backup and "10.213.1.11" in backup
    for text in (master, backup):
        assert "10.213.1.10/24 dev @FRONT_IF@" in text and "10.213.2.9/24 dev @BACK_IF@" in text
        assert "lvs_sync_daemon @FRONT_IF@ lab" in text and "nopreempt" not in text
    plain = config(KeepalivedSettings(vrrp="plain", preempt=False), "d", "v", SERVERS, (True, "v", "b", "p"))
    # keepalived ignores nopreempt in state MASTER: without preemption both start as backups
    assert "lvs_sync_daemon" not in plain and "nopreempt" in plain and "state BACKUP" in plain


def test_its_log_says_what_it_changed_when_and_why():
    removal, weight0 = parse_changes(LOG, "director")
    assert removal.backend == "10.213.2.21:3306" and removal.what == "removed 10.213.2.21:3306 from 10.213.1.10:3306"
    stamped = datetime.datetime(2026, 11, 25, 16, 30, 7, 300414, tzinfo=datetime.timezone.utc).timestamp()
    assert removal.why == "TCP_CHECK failed" and removal.t == pytest.approx(stamped, abs=1e-5)
    assert weight0.what.startswith("weight 0 10.213.2.31:80") and weight0.why == "health check failed"


def test_a_removal_with_expire_nodest_conn_1_resets_the_flow_at_the_next_retransmission():
    plane = control_plane("keepalived", (("directors", (("reset", (("expire_nodest_conn", 1),)),
                                                         ("inhibit", (("inhibit_on_failure", True),)))),))
    [removal] = [c for c in parse_changes(LOG, "director-reset") if c.backend.endswith(":3306")]
    t_fault = removal.t - 4.9
    reset = plane.effect_on(Effect("blackhole"), "director-reset", [removal], t_fault)
    assert reset == Effect("blackhole", reset_at_s=4.9, reset_by_s=4.9)
    assert plane.effect_on(Effect("blackhole"), "director-inhibit", [removal], t_fault) == Effect("blackhole")
    assert plane.effect_on(Effect("blackhole"), "director", [removal], t_fault) == Effect("blackhole")
    # docs/facts/kernel.md: an RTO of 200 ms doubles from the first retransmission (0.4 s): 0.8, 1.6, 3.2, 6.4 s;
    # the first one after 4.9 s comes at ~6.4 s after the first unacknowledged send (one probe
    # interval after the fault at most), each timer up to 12.5 % late.
    window = predict(Cell("r5", (("tcp_retries2", 5),)), reset, interval_s=0.1, inject_s=0.0, rto0_s=0.2)
    assert window.earliest_s >= 6.4 and window.latest_s <= 6.4 * 1.125 + 0.1, window
    assert kernel_model.first_retransmission_after(4.9, 0.2, slack_share=0) == pytest.approx(6.4)


@pytest.mark.parametrize("control, message", [
    ({"keepalived": {"delay_loop": -1}}, "control.keepalived.delay_loop: a duration cannot be negative"),
    ({"keepalived": {"retry": "twice"}}, "control.keepalived.retry: must be an integer"),
    ({"keepalived": {"check": "ping"}}, "control.keepalived.check: must be one of tcp, mysql, http"),
    ({"keepalived": {"connect_timeout": 0.01}}, "control.keepalived.connect_timeout: at least 0.1 s"),
    ({"keepalived": {"directors": {"x": {"check": "tcp"}}}}, "control.keepalived.directors.x.check: unknown key"),
    ({"keepalived": {"expire_nodest_conn": 2}}, "control.keepalived.expire_nodest_conn: must be one of 0, 1"),
    ({"envoy": {}}, "control: must be one of aws-nlb, azure-standard, dns, gcp-passthrough, haproxy, keepalived, "
                    "kube-proxy, "
                    "manual"),
])
def test_bad_keepalived_settings_are_one_message_naming_the_field(control, message):
    raw = {"control": control, "load": {"probe": {}}, "cells": [{"tcp_retries2": 5}],
           "steps": [{"fault": "silent_kill", "target": "db-primary"}]}
    with pytest.raises(ScenarioError, match=message.replace(".", r"\.").replace("(", r"\(")):
        scenario.parse(raw, "k.yaml", "k")


def test_a_cell_names_a_director_the_scenario_runs():
    raw = {"control": {"keepalived": {"directors": {"reset": {"expire_nodest_conn": 1}}}}, "load": {"probe": {}},
           "cells": [{"tcp_retries2": 5, "director": "reset"}], "steps": [{"fault": "silent_kill",
                                                                             "target": "db-primary"}]}
    assert [(c.name, c.director) for c in scenario.parse(raw, "k.yaml", "k").cells] == [("r5-reset", "reset")]
    raw["cells"][0]["director"] = "other"
    with pytest.raises(ScenarioError, match=r"cells\[0\].director: must be one of reset"):
        scenario.parse(raw, "k.yaml", "k")
    with pytest.raises(ScenarioError, match="datapath: control: keepalived programs IPVS"):
        scenario.parse({**raw, "datapath": "nftables", "cells": [{"tcp_retries2": 5}]}, "k.yaml", "k")


def test_the_knobs_from_make_are_checked_like_the_file_and_nothing_starts(tmp_path):
    parsed, _ = scenario.load("keepalived-failover", {"KEEPALIVED": "delay_loop=3 check=mysql"})
    assert dict(parsed.control_settings)["delay_loop"] == 3 and dict(parsed.control_settings)["check"] == "mysql"
    with pytest.raises(ScenarioError, match="KEEPALIVED: this scenario's director is not run by keepalived"):
        scenario.load("lvs-switchover", {"KEEPALIVED": "delay_loop=3"})
    result, docker_calls = run_without_docker(["run", "keepalived-failover"], tmp_path, {"KEEPALIVED": "retry=-1"})
    assert result.returncode == 2 and "control.keepalived.retry: must be between 0 and 100" in result.stderr
    assert result.stderr.count("\n") == 1
    assert docker_calls == []
