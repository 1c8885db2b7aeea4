"""make plan: a scenario resolved with make's overrides, with nothing started."""
import subprocess
import sys

import pytest

from harness import plan, scenario
from harness.scenario import available


@pytest.mark.parametrize("scenario_id", available())
def test_every_scenario_plans(scenario_id):
    parsed, _ = scenario.load(scenario_id)
    lines = plan.lines(parsed, "host", False, {})
    assert lines[0].startswith(f"scenario: {scenario_id} ") and any(line.startswith("where: ") for line in lines)


def test_the_plan_shows_the_overrides_and_the_generated_keepalived_conf():
    parsed, _ = scenario.load("keepalived-failover", {"TCP_RETRIES2": "7", "KEEPALIVED": "delay_loop=3"})
    text = "\n".join(plan.lines(parsed, "host", False, {"LAB_FRONT_PREFIX": "10.9.1"}))
    assert "where: a QEMU guest booting Debian's 6.12 (control: keepalived programs IPVS" in text
    assert "  r7 " in text and "tcp_retries2=7" in text
    assert "keepalived.conf of director:" in text and "virtual_server 10.9.1.10 3306 {" in text
    assert "      delay_loop 3" in text and "${" not in text


def test_an_invalid_scenario_is_refused_with_exit_2():
    done = subprocess.run([sys.executable, "-m", "harness", "plan", "lvs-switchover", "--check"], capture_output=True,
                          text=True, env={"PATH": "/usr/bin:/bin", "WARMUP_S": "forever"})
    assert done.returncode == 2 and "WARMUP_S='forever': not a duration" in done.stderr, done.stderr


def test_the_labs_probe_is_named_by_what_it_speaks_to_the_engine():
    text = "\n".join(plan.lines(scenario.load("dns-failover-pg", None)[0], "host", False, {}))
    assert "libpq-connect-timeout-5s     libpq: tcp_retries2=5" in text and "pymysql" not in text
    assert "connect-timeout-5s           pymysql: tcp_retries2=5" in "\n".join(
        plan.lines(scenario.load("dns-failover", None)[0], "host", False, {}))
