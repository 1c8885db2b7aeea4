"""Keepalived.health_checks: the director's own log read into one typed record per director: its
settings, the SYNs a check gets within its connect timeout (the director kernel's ladder), and per
period each real server's failed checks, flaps and time out of rotation."""
import datetime

import pytest

from harness.control.keepalived import Keepalived
from harness.store import RunDir

T0 = datetime.datetime(2026, 12, 5, 13, 0, 0, tzinfo=datetime.timezone.utc).timestamp()
RS, VS = "[10.213.2.21]:tcp:3306", "[10.213.1.100]:tcp:3306"


def logged(at_s, text):
    when = datetime.datetime.fromtimestamp(T0 + at_s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")
    return f"{when}000Z {text}\n"


def run_with(tmp_path, text):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "director.log").write_text(text)
    return RunDir(tmp_path)


def test_each_period_counts_its_own_failed_checks_and_time_out_of_rotation(tmp_path):
    run = run_with(tmp_path, logged(-5, f"TCP_CHECK on service {RS} failed.") + logged(2, f"TCP_CHECK on service {RS} failed.")
                   + logged(3, f"Removing service {RS} from VS {VS}") + logged(13, f"Adding service {RS} to VS {VS}"))
    env = {"director": {"tcp_syn_retries": 6, "tcp_syn_linear_timeouts": 0}}
    periods = {"before": (T0 - 10, T0), "during": (T0, T0 + 10), "after": (T0 + 10, None)}
    [(director, checks)] = Keepalived({"connect_timeout": 3}).health_checks(run, env, periods, T0 + 30).items()
    assert director == "director" and checks["connect_timeout_s"] == 3 and checks["syns_per_check"] == 2
    assert checks["syn_retransmitted_at_s"] == [1.0]
    assert checks["before"]["10.213.2.21:3306"]["failed_checks"] == 1
    assert checks["during"]["10.213.2.21:3306"] == {"failed_checks": 1, "flaps": 1, "virtual_servers_hit": 1, "out_s": 10.0}
    assert checks["after"]["10.213.2.21:3306"]["flaps"] == 0


def test_a_period_of_another_name_is_refused(tmp_path):
    with pytest.raises(ValueError, match="before, during or after"):
        Keepalived().health_checks(run_with(tmp_path, ""), {}, {"meanwhile": (T0, None)}, T0 + 1)
