"""What the haproxy control plane generates is what HAProxy itself accepts: each haproxy.cfg of the
scenarios that run it, and one with every knob set, checked by `haproxy -c` in the director image,
as the director's entrypoint checks it before it starts; a keyword HAProxy does not know is refused."""
import subprocess

import pytest

from harness.control import control_plane
from harness.control.haproxy import Haproxy
from harness.databases import database
from harness.lab import planned_addresses
from harness.scenario import available, load

IMAGE = "blackhole-lab/director:dev"
EVERY_KNOB = (("check", "mysql"), ("fastinter", 0.5), ("downinter", 5.0), ("timeout_server", 10.0),
              ("timeout_tunnel", 3600.0), ("timeout_check", 1.0), ("timeout_client", 30.0),
              ("shutdown_sessions", True), ("shutdown_backup_sessions", True), ("srvtcpka", True),
              ("srvtcpka_idle", 5.0), ("srvtcpka_intvl", 1.0), ("srvtcpka_cnt", 3), ("clitcpka", True),
              ("tcp_ut_client", 2.5), ("tcp_ut_server", 3.0), ("nolinger", True), ("redispatch", True), ("retries", 1))


def haproxy_check(text):
    return subprocess.run(
        ["docker", "run", "--rm", "--network", "none", "--label", "org.blackhole-lab=1", "-e", f"CFG={text}",
         "--entrypoint", "sh", IMAGE, "-c", 'printf "%s\\n" "$CFG" > /tmp/h.cfg && haproxy -c -f /tmp/h.cfg'],
        capture_output=True, text=True, timeout=120)


def configs(settings):
    services = control_plane("haproxy", settings).services(
        planned_addresses(), database(), ("db-primary", "db-replica", "web-a", "web-b"))
    for name, service in services.items():
        yield name, service["environment"]["HAPROXY_CFG"].replace("${LAB_BACK_PREFIX:-10.213.2}", "10.213.2")


def cases():
    found = {"every-knob": EVERY_KNOB}
    for scenario_id in available():
        parsed, _ = load(scenario_id)
        if getattr(parsed, "control", None) == Haproxy.name:
            found[scenario_id] = parsed.control_settings
    return found


@pytest.mark.parametrize("case", sorted(cases()))
def test_haproxy_accepts_the_configuration_it_is_given(case):
    for name, text in configs(cases()[case]):
        checked = haproxy_check(text)
        assert checked.returncode == 0, f"{case}/{name}: {checked.stdout}{checked.stderr}\n{text}"


def test_a_keyword_haproxy_does_not_know_is_refused():
    [(_, text)] = configs(())
    checked = haproxy_check(text.replace("option tcplog", "option tcplogg"))
    assert checked.returncode != 0 and "tcplogg" in checked.stdout + checked.stderr
