"""keepalived.conf imported: the statements of keepalived.conf(5)'s own sample read into the lab's
settings, every directive used or named, includes followed, and the configuration the lab
generates from them holding the same timers and checker, compared as parsed trees."""
from pathlib import Path

import pytest

from harness.control.keepalived_conf import config
from harness.control.keepalived_settings import KeepalivedSettings
from harness.errors import InvalidInput
from harness.imports import keepalived_import, keepalived_tree

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "incident-0312" / "keepalived.conf"
# keepalived's samples/keepalived.conf.sample (its LVS part), as the project ships it
SAMPLE = """! Configuration File for keepalived

global_defs {
   notification_email {
     acassen
   }
   notification_email_from Alexandre.Cassen@firewall.loc
   smtp_server 192.168.200.1
   smtp_connect_timeout 30
   router_id LVS_DEVEL
}

virtual_server 10.10.10.2 1358 {
    delay_loop 6
    lb_algo rr
    lb_kind NAT
    persistence_timeout 50
    protocol TCP

    sorry_server 192.168.200.200 1358

    real_server 192.168.200.2 1358 {
        weight 1
        inhibit_on_failure
        TCP_CHECK {
            connect_timeout 3
            retry 3
            delay_before_retry 3
        }
    }
}
"""


def test_the_sample_is_read_into_the_labs_settings_and_every_directive_is_accounted_for():
    found = keepalived_import.interpret(keepalived_tree.parse_text(SAMPLE, "sample.conf"), "sample.conf")
    assert found.settings == {"delay_loop": 6, "inhibit_on_failure": True, "check": "tcp", "connect_timeout": 3,
                              "retry": 3, "delay_before_retry": 3}
    assert found.not_modelled == ["sample.conf:17: persistence_timeout 50: persistence templates: new connections from "
                                  "a client go to its server while its template lasts"]
    text = "\n".join(found.lines())
    for directive in ("router_id", "smtp_server", "weight", "lb_algo", "lb_kind", "protocol", "sorry_server"):
        assert directive in text, directive


def lab_virtual_server(settings):
    generated = config(KeepalivedSettings(**settings), "director", "10.213.1.10",
                       {"mysql": ("10.213.2.21", "10.213.2.22")})
    [server] = [s for s in keepalived_tree.parse_text(generated) if s.keyword == "virtual_server"]
    return server


TIMERS = ("delay_loop", "lb_kind", "protocol")
CHECK_TIMERS = ("connect_timeout", "retry", "delay_before_retry")


def timer_tree(server):
    """The part of a virtual server that decides when a dead server is taken out."""
    real = server.first("real_server")
    [checker] = [s for s in real.block if s.keyword.endswith("_CHECK")]
    return ([s.shape() for s in server.block if s.keyword in TIMERS],
            real.first("inhibit_on_failure") is not None, checker.keyword,
            sorted(s.shape() for s in checker.block if s.keyword in CHECK_TIMERS))


@pytest.mark.parametrize("text", [SAMPLE, SAMPLE.replace("delay_loop 6", "delay_loop 2").replace("retry 3", "retry 0")])
def test_the_generated_configuration_has_the_imported_timers(text):
    imported = keepalived_tree.parse_text(text)
    settings = keepalived_import.interpret(imported).settings
    [server] = [s for s in imported if s.keyword == "virtual_server"]
    assert timer_tree(lab_virtual_server(settings)) == timer_tree(server)


def test_includes_are_followed_and_keepalived_defaults_stand_where_nothing_is_given():
    found = keepalived_import.read(EXAMPLE)
    assert found.settings == {"vrrp": "plain", "advert_int": 1, "check": "tcp"} and found.idle_timeout_s == 900
    assert any("keepalived.d/mysql.conf:6: real_server 10.20.1.21 3306: the lab's primary" in line for line in found.used)
    assert found.explain_words() == ["DELAY_LOOP=60"]


@pytest.mark.parametrize("text, says", [
    ("virtual_server 1.2.3.4 3306 {\n lb_kind DR\n real_server 5.6.7.8 3306 {\n }\n}\n",
     "x.conf:2: lb_kind DR: the lab's director runs NAT"),
    ("virtual_server 1.2.3.4 3306 {\n delay_loop soon\n real_server 5.6.7.8 3306 {\n }\n}\n",
     "x.conf:2: delay_loop: a number, not soon"),
    ("virtual_server 1.2.3.4 3306 {\n real_server 5.6.7.8 3306 {\n }\n", "x.conf:1: virtual_server: its block is never"),
    ("}\n", "x.conf:1: '}' closes no block"),
    ("global_defs {\n}\n", "x.conf: no virtual_server"),
    ("include nothing-here/*.conf\n", "x.conf:1: include nothing-here/*.conf: no file matches"),
])
def test_what_the_lab_cannot_model_is_refused_with_file_and_line(tmp_path, text, says):
    with pytest.raises(InvalidInput, match=says.replace("(", r"\(").replace("*", r"\*")):
        keepalived_import.interpret(keepalived_tree.parse_text(text, "x.conf", tmp_path), "x.conf")


def test_an_include_loop_is_refused(tmp_path):
    (tmp_path / "a.conf").write_text("include a.conf\n")
    with pytest.raises(InvalidInput, match="nested deeper than"):
        keepalived_tree.parse_file(tmp_path / "a.conf")


def imported(text):
    return keepalived_import.interpret(keepalived_tree.parse_text(text, "k.conf"), "k.conf")


def server(body, around=""):
    return (f"virtual_server 10.0.0.10 3306 {{\n{around} sorry_server 10.0.0.2 3306\n real_server 10.0.0.1 3306 {{\n"
            f"{body} }}\n}}\n")


def test_every_checker_keeps_its_own_timers_and_keepalived_s_defaults_for_its_kind():
    # SMTP_CHECK's timers are read, not dropped (the lab checks with a connect, named so)
    found = imported(server("  SMTP_CHECK {\n   connect_timeout 30\n   retry 2\n   delay_before_retry 5\n  }\n"))
    assert {k: found.settings[k] for k in ("check", "connect_timeout", "retry", "delay_before_retry")} == \
        {"check": "tcp", "connect_timeout": 30, "retry": 2, "delay_before_retry": 5}
    assert any("SMTP_CHECK: the lab checks with its own TCP_CHECK" in line for line in found.not_modelled)
    # MISC_CHECK: retry 0 by default; misc_timeout (1 is valid) is when the check fails
    found = imported(server('  MISC_CHECK {\n   misc_path "/bin/check-db"\n   misc_timeout 1\n  }\n'))
    assert found.settings["retry"] == 0 and found.settings["connect_timeout"] == 1 and found.settings["check"] == "mysql"
    assert "k.conf:4: MISC_CHECK: retry 0 (keepalived's default for MISC_CHECK)" in found.used
    # ... and without misc_timeout, the virtual server's delay_loop, wherever it is said
    found = imported(server('  MISC_CHECK {\n   misc_path "/bin/check-db"\n  }\n', around=" delay_loop 7\n"))
    assert found.settings["connect_timeout"] == 7
    # HTTP_GET waits 3 s before a retry unless told
    found = imported(server("  HTTP_GET {\n   url {\n    path /\n   }\n  }\n"))
    assert found.settings["delay_before_retry"] == 3


def test_timers_set_on_the_virtual_or_real_server_are_the_checkers_defaults():
    found = imported(server("  retry 4\n  TCP_CHECK {\n   delay_before_retry 2\n  }\n", around=" connect_timeout 2\n"))
    assert (found.settings["connect_timeout"], found.settings["retry"], found.settings["delay_before_retry"]) == (2, 4, 2)
    assert "k.conf:2: connect_timeout 2" in found.used and "k.conf:5: retry 4" in found.used


def test_lvs_method_is_lb_kinds_current_spelling_and_a_server_without_a_checker_is_refused():
    assert "k.conf:2: lvs_method NAT: as the lab's director" in imported(
        server("  TCP_CHECK {\n  }\n", around=" lvs_method NAT\n")).used
    with pytest.raises(InvalidInput, match="k.conf:2: lvs_method DR: the lab's director runs NAT"):
        imported(server("  TCP_CHECK {\n  }\n", around=" lvs_method DR\n"))
    with pytest.raises(InvalidInput, match="k.conf:3: real_server 10.0.0.1 3306 has no checker .* keepalived never takes"):
        imported(server("  weight 1\n"))


def test_a_timer_said_twice_in_a_block_names_both_lines_and_one_the_lab_cannot_run_is_refused_at_its_line():
    found = imported(server("  TCP_CHECK {\n   connect_timeout 3\n   connect_timeout 4\n  }\n"))
    assert found.settings["connect_timeout"] == 4
    assert ("k.conf:6: connect_timeout 4: replaces k.conf:5: connect_timeout 3 (keepalived takes the last said)"
            in found.used)
    with pytest.raises(InvalidInput, match=r"k.conf:5: retry 500: the lab's keepalived runs 0 to 100 here, not 500"):
        imported(server("  TCP_CHECK {\n   retry 500\n  }\n"))
