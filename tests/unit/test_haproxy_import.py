"""An operator's haproxy.cfg read as HAProxy's manual writes it: each directive used, named as not
modelled, or of no bearing; what the lab cannot stand in for refused with file:line."""
from pathlib import Path

import pytest

from harness import imports
from harness.errors import InvalidInput
from harness.imports import haproxy_import
from harness.replay import build
from harness.answer import explain
from harness.scenario import parse_definition

FIXTURE = Path(__file__).parent / "fixtures" / "haproxy" / "incident-haproxy.cfg"


def test_the_database_backend_and_its_defaults_become_the_labs_settings():
    found = haproxy_import.read(FIXTURE)
    assert found.settings == {"timeout_connect": 5.0, "timeout_client": 1800.0, "timeout_server": 1800.0,
                              "retries": 3, "check": "mysql-user", "inter": 3.0, "fall": 3, "rise": 2,
                              "shutdown_sessions": True}
    lines = "\n".join(found.lines())
    assert ("incident-haproxy.cfg:14: option mysql-check user haproxy: check=mysql-user (the lab's check logs in as "
            "haproxy_check, no password)") in lines
    assert "incident-haproxy.cfg:18: listen stats: not read" in lines
    assert ("no bearing on a failover: bind (where HAProxy listens); global (the process's settings); log, option tcplog "
            "(what HAProxy logs)") in lines


def test_its_words_are_what_explain_takes_and_the_answer_is_haproxys():
    words = haproxy_import.read(FIXTURE).explain_words()
    assert words == ["HAPROXY=timeout_connect=5 timeout_client=1800 timeout_server=1800 retries=3 check=mysql-user "
                     "inter=3 fall=3 rise=2 shutdown_sessions=true"]
    text = explain.explain(explain.parse_knobs(words))
    assert text.startswith("Answer: through HAProxy, HAProxy marked the server down and shut its sessions")


@pytest.mark.parametrize(("text", "refusal"), [
    ("defaults\n  mode http\nbackend db\n  server a 10.0.0.1:3306\n", r"haproxy.cfg:2: mode http: the lab's HAProxy"),
    ("backend a\n  server a 10.0.0.1:3306\nbackend b\n  server b 10.0.0.2:5432\n", "backends with servers on 3306 or "
                                                                              "5432: a, b"),
    ("backend db\n  server a 10.0.0.1:3306 backup\n", r"haproxy.cfg:2: every server is `backup`"),
    ("backend db\n  timeout server 10x\n  server a 10.0.0.1:3306\n", r"haproxy.cfg:2: '10x': not one of HAProxy's"),
    ("  server a 10.0.0.1:3306\n", r"haproxy.cfg:1: server: outside any section"),
])
def test_what_the_lab_cannot_stand_in_for_is_refused_with_its_line(text, refusal):
    with pytest.raises(InvalidInput, match=refusal):
        haproxy_import.interpret(text)


def test_a_directive_it_does_not_model_is_named_never_dropped():
    found = haproxy_import.interpret("backend db\n  option httpchk GET /primary\n  hash-balance-factor 150\n"
                                     "  retry-on conn-failure\n  server a 10.0.0.1:5432 check port 8008 ssl observe layer4\n"
                                     "  server b 10.0.0.2:5432 backup\n")
    assert found.not_modelled == ["haproxy.cfg:2: option httpchk GET /primary: an HTTP check (Patroni's /primary is "
                                  "control: patroni's)",
                                  "haproxy.cfg:4: retry-on conn-failure: what it does to a session the lab does not "
                                  "stand in for",
                                  "haproxy.cfg:5: server ... observe: another way to mark the server down (live "
                                  "traffic's errors, another server's state, an agent)"]
    assert {"hash-balance-factor", "server port", "server ssl"} <= set(found.no_bearing)
    assert haproxy_import.seconds("1500", "x") == 1.5 and haproxy_import.seconds("2m", "x") == 120.0


def test_an_incident_behind_haproxy_is_replayed_behind_haproxy_with_its_own_cures(tmp_path):
    (tmp_path / "haproxy.cfg").write_text(FIXTURE.read_text())
    incident = imports.from_dir(str(tmp_path))
    assert incident.haproxy.settings["inter"] == 3.0 and incident.explain_words()[0].startswith("HAPROXY=")
    definition = build.plan(incident).definition
    control = definition["control"]["haproxy"]
    assert control["inter"] == 3.0 and control["shutdown_sessions"] is True
    # the operator has shutdown-sessions already: the cures are the HAProxy settings it lacks (faster
    # checks, timeout server, the proxy host's tcp_retries2), and the pair shares the checks' director
    assert control["directors"] == {"fast-checks": {"inter": 1.0, "fall": 2}, "tserver": {"timeout_server": 10},
                                    "serverleg": {"server_tcp_retries2": 5}}
    names = [cell["name"] for cell in definition["cells"]]
    assert "director-reset" not in names and {"haproxy-tserver-10s", "haproxy-host-retries2-5", "pair"} <= set(names)
    assert not {"user-timeout-3000ms", "retries2-5", "keepalive-5-1-3"} & set(names)   # the client's kernel: never
    parsed = parse_definition(definition, "the replay", "replay")
    assert parsed.control == "haproxy"
    # the run observes the operator's wait to its end: the markdown (3 s checks, fall 3) with
    # shutdown-sessions, well before its timeout server 30m
    assert definition["observe_s"] < 120

    # the client host's `sysctl -a` with ip_vs loaded: behind HAProxy its IPVS settings decide nothing
    (tmp_path / "sysctl-a.txt").write_text("kernel.osrelease = 6.12.0\nnet.ipv4.tcp_retries2 = 15\n"
                                           "net.ipv4.vs.expire_nodest_conn = 0\n")
    incident = imports.from_dir(str(tmp_path))
    assert not any(word.startswith("EXPIRE_NODEST_CONN") for word in incident.explain_words())
    assert "net.ipv4.vs.expire_nodest_conn (the director is HAProxy (haproxy.cfg), not IPVS)" in "\n".join(incident.lines())
    assert explain.explain(explain.parse_knobs(incident.explain_words())).startswith("Answer: through HAProxy")
    (tmp_path / "sysctl-a.txt").unlink()

    (tmp_path / "keepalived.conf").write_text("virtual_server 10.0.0.10 3306 {\n  real_server 10.0.0.1 3306 {\n  }\n}\n")
    with pytest.raises(InvalidInput, match="keepalived.conf and haproxy.cfg: one director"):
        imports.from_dir(str(tmp_path))


BACKEND = "  server a 10.0.0.1:3306 check inter 1s fall 3\n  server b 10.0.0.2:3306 check backup\n"


@pytest.mark.parametrize(("text", "refusal"), [
    # a server HAProxy never checks is never marked down (its manual, 5.2 `check`)
    ("backend db\n  server a 10.0.0.1:3306\n  server b 10.0.0.2:3306 backup\n",
     r"haproxy.cfg:2: server a has no `check`.*never marks it down"),
    ("backend db\n  server a 10.0.0.1:3306 no-check\n  server b 10.0.0.2:3306 backup\n", r"server a has no `check`"),
    ("backend db\n  server a 10.0.0.1:3306 check\n", r"haproxy.cfg:2: server a: the backend's only server"),
    ("defaults web\n  mode http\nbackend db from nowhere\n" + BACKEND, r"haproxy.cfg:3: from nowhere: no defaults"),
    (".if defined(DB_CHECKS)\ndefaults\n  mode tcp\n.endif\nbackend db\n" + BACKEND, r"haproxy.cfg:2: defaults : a section "
                                                                                  r"under haproxy.cfg:1"),
    ("backend db\n.if feature(OPENSSL)\n  timeout server 5s\n.endif\n" + BACKEND,
     r"haproxy.cfg:3: timeout server 5s: under haproxy.cfg:2 \(.if feature\(OPENSSL\)\)"),
    ("backend db\n.if 1\n" + BACKEND, r"haproxy.cfg:2 \(.if 1\): .if without its .endif"),
    ("backend db\n  .endif\n" + BACKEND, r"haproxy.cfg:2: .endif without an .if"),
])
def test_what_haproxy_would_not_do_as_the_lab_does_is_refused_at_its_line(text, refusal):
    with pytest.raises(InvalidInput, match=refusal):
        haproxy_import.interpret(text)


def test_a_backend_takes_the_defaults_it_names_and_its_own_mode_wins():
    text = ("defaults db\n  mode tcp\n  timeout server 30m\n"
            "defaults web\n  mode http\n  timeout server 5s\n"
            "listen mysql from db\n  bind :3306\n" + BACKEND +
            "backend site\n  mode http\n  server w 10.0.0.9:80 check\n")
    found = haproxy_import.interpret(text)
    assert found.settings["timeout_server"] == 1800.0       # db's, not the last defaults' 5 s
    assert "haproxy.cfg:3: timeout server 30m: timeout_server=1800 s" in found.used
    assert "haproxy.cfg:4: defaults web: not read" in "\n".join(found.not_modelled)
    # without `from`: the last defaults before it, and its own `mode tcp` over their `mode http`
    found = haproxy_import.interpret("defaults\n  mode http\n  timeout server 5s\nbackend db\n  mode tcp\n" + BACKEND)
    assert found.settings["timeout_server"] == 5.0
    assert "haproxy.cfg:5: mode tcp" in found.used
    # a named defaults taking another's with `from`
    found = haproxy_import.interpret("defaults base\n  timeout connect 3s\ndefaults db from base\n  retries 2\n"
                                     "backend db from db\n" + BACKEND)
    assert found.settings["timeout_connect"] == 3.0 and found.settings["retries"] == 2


def test_conditional_blocks_are_followed_where_their_condition_is_a_number_and_no_lines_are_misread():
    text = ("backend db\n.if 0\n  timeout server 5s\n.elif 1\n  timeout server 7s\n.else\n  timeout server 9s\n.endif\n"
            ".if defined(X)\n  log global\n.endif\n.notice \"reading\"\n  no log\n  no option redispatch\n"
            "  no option tcp-smart-connect\n" + BACKEND)
    found = haproxy_import.interpret(text)
    assert found.settings["timeout_server"] == 7.0
    assert found.settings["redispatch"] is False
    assert "haproxy.cfg:14: no option redispatch: redispatch=false" in found.used
    assert "option tcp-smart-connect" in found.no_bearing and "log" in found.no_bearing


def test_a_value_the_lab_cannot_run_is_refused_at_the_line_that_said_it_and_a_repeat_names_both_lines():
    with pytest.raises(InvalidInput, match=r"haproxy.cfg:2: server a 10.0.0.1:3306 check inter 20ms: the lab's haproxy "
                                           r"runs .* not 0.02 s"):
        haproxy_import.interpret("backend db\n  server a 10.0.0.1:3306 check inter 20ms\n"
                                 "  server b 10.0.0.2:3306 backup\n")
    found = haproxy_import.interpret("defaults\n  timeout server 30m\nbackend db\n  timeout server 5s\n"
                                     "  timeout server 10s\n" + BACKEND)
    assert found.settings["timeout_server"] == 10.0
    assert ("haproxy.cfg:5: timeout server 10s: replaces haproxy.cfg:4: timeout server 5s (HAProxy: the last said, "
            "a server's own over default-server's, a backend's over its defaults')") in found.used


@pytest.mark.parametrize(("line", "says"), [
    ("  timeout sever 5s", r"haproxy.cfg:2: timeout sever 5s: not a keyword .* did you mean timeout server\?"),
    ("  option redispach", r"did you mean option redispatch\?"),
    ("  server c 10.0.0.3:3306 backup chek", r"haproxy.cfg:2: server ... chek: not a server option .* did you mean "
                                             r"check\?"),
])
def test_a_keyword_that_is_not_haproxys_is_refused_at_its_line_with_the_nearest(line, says):
    with pytest.raises(InvalidInput, match=says):
        haproxy_import.interpret("backend db\n" + line + "\n" + BACKEND)


def test_bind_tcp_ut_is_the_clients_legs_user_timeout_and_option_tcpka_both_legs_keepalive():
    found = haproxy_import.interpret("listen db\n  bind :3306 tcp-ut 3s\n  option tcpka\n" + BACKEND)
    assert found.settings["tcp_ut_client"] == 3.0
    assert found.settings["clitcpka"] is True and found.settings["srvtcpka"] is True


def test_several_active_servers_keep_the_first_ones_timers_and_the_others_are_named():
    found = haproxy_import.interpret("backend db\n  server a 10.0.0.1:3306 check inter 1s fall 3\n"
                                     "  server c 10.0.0.3:3306 check inter 10s fall 5\n  server b 10.0.0.2:3306 backup\n")
    assert (found.settings["inter"], found.settings["fall"]) == (1.0, 3)        # a's, not overwritten by c's
    assert any(line.startswith("haproxy.cfg:3: server c: another active server HAProxy balances new sessions over; "
                               "the lab's primary is a (haproxy.cfg:2)") for line in found.not_modelled)
    # with no backup, the second active server is the lab's standby, said so
    found = haproxy_import.interpret("backend db\n  server a 10.0.0.1:3306 check inter 1s fall 3\n"
                                     "  server c 10.0.0.3:3306 check inter 10s fall 5\n")
    assert found.settings["inter"] == 1.0
    assert any("server c: the lab's standby: HAProxy balances new sessions over it and the first until the first is "
               "down" in line for line in found.not_modelled)
