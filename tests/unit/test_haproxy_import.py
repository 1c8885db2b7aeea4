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
    assert "incident-haproxy.cfg:19: listen stats: not read" in lines
    assert "no bearing on a failover: bind, global (the process's settings), log, option tcplog, server check" in lines


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
                                     "  server a 10.0.0.1:5432 check port 8008 ssl\n  server b 10.0.0.2:5432 backup\n")
    assert found.not_modelled == ["haproxy.cfg:2: option httpchk GET /primary: an HTTP check (Patroni's /primary is "
                                  "control: patroni's)", "haproxy.cfg:3: hash-balance-factor 150",
                                  "haproxy.cfg:4: server ... ssl"]
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

    (tmp_path / "keepalived.conf").write_text("virtual_server 10.0.0.10 3306 {\n  real_server 10.0.0.1 3306 {\n  }\n}\n")
    with pytest.raises(InvalidInput, match="keepalived.conf and haproxy.cfg: one director"):
        imports.from_dir(str(tmp_path))
