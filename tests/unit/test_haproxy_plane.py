"""The haproxy control plane without a lab: the haproxy.cfg it writes, HAProxy's log and runtime
API state read back (fixtures from a real run's director), its markdown model against what
HAProxy 2.6.12 did here (docs/facts/proxies.md), and what a proxied client's wait is predicted to end on."""
from pathlib import Path

import pytest

from harness.control import control_plane
from harness.control.base import DirectorChange
from harness.control.haproxy import closes
from harness.control.haproxy_cfg import config, duration
from harness.control.haproxy_settings import HaproxySettings, markdown
from harness.databases import database
from harness.lab import REPO, planned_addresses
from harness.measure import haproxy_log
from harness.measure.effects import APP_HANG, BLACKHOLE, Effect
from harness.measure.predict import predict
from harness.scenario import ScenarioError, load
from harness.scenario.parser import read_cell

FIXTURES = Path(__file__).parent / "fixtures" / "haproxy"
SERVERS = {"mysql": ("10.213.2.21", "10.213.2.22")}
# docs/facts/proxies.md: inter 2s fall 3, no timeout check: the server marked down 10.27 s after its death
MEASURED_MARKDOWN_S = 10.27


def lines(text):
    return [line.strip() for line in text.splitlines()]


def test_haproxy_defaults_are_written_out_and_unset_timeouts_left_out():
    cfg = lines(config(HaproxySettings(), "director", SERVERS))
    assert "timeout connect 5s" in cfg and "retries 3" in cfg
    assert not [line for line in cfg if line.startswith(("timeout server", "timeout client", "timeout tunnel"))]
    assert "default-server check inter 2s fall 3 rise 2" in cfg
    assert "server primary 10.213.2.21:3306" in cfg and "server standby 10.213.2.22:3306 backup" in cfg


def test_every_knob_reaches_its_line():
    settings = HaproxySettings(check="mysql", fastinter=0.5, downinter=5, timeout_server=10, timeout_tunnel=3600,
                               timeout_check=1, timeout_client=30, shutdown_sessions=True,
                               shutdown_backup_sessions=True, srvtcpka=True, srvtcpka_idle=5, srvtcpka_intvl=1,
                               srvtcpka_cnt=3, clitcpka=True, tcp_ut_client=2.5, tcp_ut_server=3, nolinger=True,
                               redispatch=True, retries=1)
    cfg = lines(config(settings, "director", SERVERS))
    for expected in ("option mysql-check", "timeout server 10s", "timeout tunnel 3600s", "timeout check 1s",
                     "timeout client 30s", "option srvtcpka", "srvtcpka-idle 5s", "srvtcpka-intvl 1s",
                     "srvtcpka-cnt 3", "option clitcpka", "option nolinger", "option redispatch", "retries 1",
                     "bind :3306 tcp-ut 2500ms",
                     "default-server check inter 2s fastinter 500ms downinter 5s fall 3 rise 2 "
                     "on-marked-down shutdown-sessions tcp-ut 3s",
                     "server primary 10.213.2.21:3306 on-marked-up shutdown-backup-sessions"):
        assert expected in cfg, expected
    assert duration(0.25) == "250ms" and duration(2) == "2s" and duration(1.5) == "1500ms"


def test_each_variant_is_a_director_of_its_own_with_its_kernels_retries():
    plane = control_plane("haproxy", (("directors", (("leg", (("server_tcp_retries2", 5),)),
                                                     ("shut", (("shutdown_sessions", True),)))),))
    services = plane.services(planned_addresses(), database(), ("db-primary", "db-replica"))
    assert set(services) == {"director", "director-leg", "director-shut"}
    assert services["director-leg"]["sysctls"] == {"net.ipv4.tcp_retries2": 5}
    assert services["director"]["sysctls"] == {"net.ipv4.tcp_retries2": 15}
    assert services["director"]["environment"]["LB_SERVICES"] == ""
    assert "shutdown-sessions" in services["director-shut"]["environment"]["HAPROXY_CFG"]
    assert "shutdown-sessions" not in services["director"]["environment"]["HAPROXY_CFG"]
    addresses = {str(s.get("addresses")) for s in services.values()}
    assert len(addresses) == 3


@pytest.mark.parametrize("control, message", [
    ({"haproxy": {"fal": 3}}, "fal"),
    ({"haproxy": {"check": "http"}}, "check"),
    ({"haproxy": {"inter": -1}}, "inter"),
    ({"haproxy": {"directors": {"x": {"timeout_servr": 10}}}}, "timeout_servr"),
])
def test_a_wrong_setting_is_refused_by_name(control, message):
    with pytest.raises(ScenarioError, match=message):
        load("haproxy-failover", {"control": control})


def test_the_mysql_check_logs_in_as_the_account_the_images_make_where_the_engine_takes_it():
    [cfg] = [service["environment"]["HAPROXY_CFG"] for service in control_plane("haproxy", (("check", "mysql-user"),))
             .services(planned_addresses(), database(), ("db-primary", "db-replica")).values()]
    assert "option mysql-check user haproxy_check post-41" in cfg
    images = (REPO / "images" / "mysql" / "entrypoint.sh").read_text()
    assert "CREATE USER IF NOT EXISTS 'haproxy_check'@'%';" in images
    for check in ("mysql", "mysql-user"):        # HAProxy 2.6's check fails against MySQL 9.7 (docs/facts/mysql.md)
        with pytest.raises(ScenarioError, match="error 1251"):
            load("haproxy-failover", {"DB_ENGINE": "mysql", "control": {"haproxy": {"check": check}}, "cells": [{"tcp_retries2": 5}]})
        with pytest.raises(ScenarioError, match="speaks MySQL's handshake"):
            load("haproxy-failover", {"DB_ENGINE": "postgres", "control": {"haproxy": {"check": check}}, "cells": [{"tcp_retries2": 5}]})


def test_state_changes_sessions_and_state_samples_are_read_back_from_haproxy_itself():
    log = (FIXTURES / "director-shutdown.log").read_text()
    [down] = haproxy_log.state_changes(log)     # the stderr copy of the same line is not a second change
    assert (down.backend, down.server, down.state, down.reason) == ("mysql", "primary", "DOWN", "Layer4 timeout")
    killed, after = haproxy_log.sessions(log)
    assert killed.termination == "D-" and killed.server == "primary" and after.server == "standby"
    assert killed.ended_t == pytest.approx(1795935113.750, abs=0.001)     # accepted 06:51:31.764 + 21986 ms
    samples = haproxy_log.parse_samples((FIXTURES / "table-director-shutdown.txt").read_text())
    assert [table["mysql"]["10.213.2.21:3306"] for _, table in samples] == [1, 1, 0]


class Run:
    """A run's files as the plane reads them (store.RunDir's names)."""
    def __init__(self, files):
        self.files = files

    def director_table(self, director):
        return f"table-{director}.txt"

    def service_log(self, service):
        return f"{service}.log"

    def read(self, name):
        return self.files.get(name, "")


def test_the_markdown_is_bounded_by_the_sampled_state():
    plane = control_plane("haproxy")
    run = Run({"director.log": (FIXTURES / "director-shutdown.log").read_text(),
               "table-director.txt": (FIXTURES / "table-director-shutdown.txt").read_text()})
    [change] = plane.changes(run)
    assert change.backend == "10.213.2.21:3306" and change.why == "Layer4 timeout"
    # last sample still running it, then the log line (before the next sample)
    assert change.t == pytest.approx(1795935113.671819) and change.uncertainty_s == pytest.approx(0.078, abs=0.001)


def test_the_markdown_model_holds_what_haproxy_did_here():
    window = markdown(HaproxySettings(inter=2, fall=3))
    assert window.earliest_s <= MEASURED_MARKDOWN_S <= window.latest_s
    assert (window.earliest_s, window.latest_s) == (10.0, 12.5)
    # timeout check set: a silent server's check fails at min(timeout connect, inter)
    assert HaproxySettings(inter=4, timeout_check=1, timeout_connect=1).check_timeout_s == 1
    assert markdown(HaproxySettings(inter=4, fastinter=1, fall=2, timeout_check=1, timeout_connect=1)).earliest_s == 3


def test_a_proxied_clients_wait_ends_at_the_first_of_haproxys_limits_never_at_its_own_kernel():
    cell = read_cell({"tcp_retries2": 5, "tcp_user_timeout_ms": 3000}, "cell")
    shut = Effect(APP_HANG, closes=closes(HaproxySettings(shutdown_sessions=True), (11.0, 11.1)))
    window = predict(cell, shut, 0.1, 0.0)
    assert 11.0 <= window.earliest_s and window.latest_s <= 11.2 and "shutdown-sessions" in window.basis
    timed = predict(cell, Effect(APP_HANG, closes=closes(HaproxySettings(timeout_server=10), None)), 0.1, 0.0)
    assert timed.earliest_s == 10 and "timeout server" in timed.basis
    tunnel = closes(HaproxySettings(timeout_server=10, timeout_tunnel=60), None)
    assert [c.at_s for c in tunnel if "timeout" in c.basis] == [60]
    # at HAProxy's defaults only the proxy host's kernel ends it (tcp_retries2=15: ~924.6 s budget)
    default = predict(cell, Effect(APP_HANG, closes=closes(HaproxySettings(), None)), 0.1, 0.0)
    assert default.earliest_s > 900 and "tcp_retries2=15" in default.basis
    # the client's own read timeout still ends it first
    reading = read_cell({"read_timeout_s": 5}, "cell")
    assert "read timeout" in predict(reading, Effect(APP_HANG, closes=closes(HaproxySettings(), None)),
                                     0.1, 0.0).basis


def test_the_plane_turns_a_dead_server_into_an_answer_that_never_comes_for_the_client():
    plane = control_plane("haproxy", (("shutdown_sessions", True),))
    change = DirectorChange(111.0, 0.0, "marked down 10.213.2.21:3306 (mysql/primary)", "Layer4 timeout",
                            "director", "10.213.2.21:3306")
    effect = plane.effect_on(Effect(BLACKHOLE), "director", [change], 100.0)
    assert effect.kind == APP_HANG and effect.closes[0].at_s == 11.0
    assert Effect.from_record(effect.to_record()) == effect
    assert plane.change_for("director", [change], 3306, 100.0) is change
    assert plane.change_for("director", [change], 80, 100.0) is None


def test_explain_says_which_of_haproxys_limits_ends_the_wait_first():
    from harness.answer import explain
    from harness.settings.registry import HAPROXY_WORDS
    from harness.control.haproxy import Haproxy
    assert set(HAPROXY_WORDS) == set(Haproxy.settings_spec) - {"directors"}
    told = explain.explain(explain.parse_knobs(["HAPROXY=inter=2 fall=3 shutdown_sessions=true",
                                                "TCP_USER_TIMEOUT_MS=3000"]))
    first = told.splitlines()[0]
    assert "shut its sessions" in first and "about 11.2 s" in first and "never fires" in first
    timed = explain.explain(explain.parse_knobs(["HAPROXY=timeout_server=10", "READ_TIMEOUT_S=30"]))
    assert "timeout server 10 s ends a busy client's wait after about 10.0 s" in timed.splitlines()[0]
    reading = explain.explain(explain.parse_knobs(["HAPROXY=inter=2", "READ_TIMEOUT_S=5"]))
    assert "the application's read_timeout=5 ends a busy client's wait after about 5.0 s" in reading.splitlines()[0]
    assert "Expected: ETIMEDOUT" not in reading and "Cures: TCP_USER_TIMEOUT" not in reading   # the proxy's story only
    with pytest.raises(Exception, match="control.haproxy.inter"):
        explain.explain(explain.parse_knobs(["HAPROXY=inter=-1"]))


def test_haproxy_words_override_a_haproxy_scenario_and_no_other():
    parsed, _ = load("haproxy-failover", {"HAPROXY": "inter=1 shutdown_sessions=true"})
    settings = dict(parsed.control_settings)
    assert settings["inter"] == 1 and settings["shutdown_sessions"] is True and "directors" in settings
    with pytest.raises(ScenarioError, match="not run by haproxy"):
        load("keepalived-failover", {"HAPROXY": "inter=1"})


def test_the_plan_expects_each_cell_by_haproxys_own_model():
    from harness.report import expectation as explain
    parsed, _ = load("haproxy-failover")
    _, expected = explain.expected_errors_s(parsed)
    # shutdown-sessions at the markdown (10-12.5 s: with and without nolinger), timeout server 10 s,
    # tcp_retries2=5 on the server leg, a read timeout 5 s; the rest (the client's own cures, and
    # tcp-ut on the server line, which 2.6.12 ignored here) only by the proxy host's 924.6 s budget
    assert sorted(round(e) for e in expected if e < 100) == [5, 10, 11, 11, 13]
    assert sum(e > 900 for e in expected) == 4
    assert "haproxy's own model" in explain.expectation(parsed)
