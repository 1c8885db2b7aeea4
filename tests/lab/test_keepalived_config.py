"""What the keepalived control plane generates is what keepalived itself accepts: every
keepalived.conf a scenario's settings make, checked by `keepalived --config-test` in the director
image (with stand-in interfaces: a veth pair in a container with no network)."""
import subprocess

import pytest

from harness.control import control_plane
from harness.databases import database
from harness.lab import planned_addresses

IMAGE = "blackhole-lab/director:dev"
STAND_IN_INTERFACES = "ip link add front0 type veth peer name back0 && ip link set front0 up && ip link set back0 up"
SETTINGS = {
    "keepalived-failover": (("delay_loop", 2.0), ("connect_timeout", 1.0), ("retry", 1), ("delay_before_retry", 1.0),
                            ("directors", (("reset", (("expire_nodest_conn", 1),)),
                                           ("inhibit", (("inhibit_on_failure", True),))))),
    "mysql-check": (("check", "mysql"),),
    "vrrp": (("vrrp", "plain"),),
    "vrrp-sync-nopreempt": (("vrrp", "sync"), ("preempt", False), ("advert_int", 1.0)),
    "healthcheck-storm": (("delay_loop", 1.0), ("connect_timeout", 2.5), ("retry", 0), ("virtual_services", 8),
                          ("directors", (("second", (("expire_nodest_conn", 0),)),))),
}


def configs(settings):
    services = control_plane("keepalived", settings).services(
        planned_addresses(), database(), ("db-primary", "db-replica", "web-a", "web-b"))
    for name, service in services.items():
        yield name, service["environment"]["KEEPALIVED_CONF"]


@pytest.mark.parametrize("case", sorted(SETTINGS))
def test_keepalived_accepts_the_configuration_it_is_given(case):
    for name, text in configs(SETTINGS[case]):
        text = text.replace("@FRONT_IF@", "front0").replace("@BACK_IF@", "back0").replace(
            "${LAB_FRONT_PREFIX:-10.213.1}", "10.213.1").replace("${LAB_BACK_PREFIX:-10.213.2}", "10.213.2")
        checked = subprocess.run(
            ["docker", "run", "--rm", "--network", "none", "--cap-add", "NET_ADMIN", "--label", "org.blackhole-lab=1",
             "-e", f"CONF={text}", "--entrypoint", "sh", IMAGE, "-c",
             f'{STAND_IN_INTERFACES} && printf "%s\\n" "$CONF" > /tmp/k.conf && keepalived --config-test -f /tmp/k.conf'],
            capture_output=True, text=True, timeout=120)
        assert checked.returncode == 0, f"{case}/{name}: {checked.stdout}{checked.stderr}\n{text}"
