"""control/promotion.py: Patroni's first promotion after the fault, read from the servers' own logs,
beside its ttl/loop_wait window, and the director's first change that followed it; both Patroni
planes give the same record, summary.json's keys as before."""
import datetime

from harness.control.base import DirectorChange
from harness.control.patroni import Patroni
from harness.control.patroni_dns import PatroniDns
from harness.control.promotion import first_patroni_promotion, patroni_window
from harness.store import RunDir

T0 = datetime.datetime(2026, 12, 5, 13, 0, 0, tzinfo=datetime.timezone.utc).timestamp()


def logged(at_s, text):
    when = datetime.datetime.fromtimestamp(T0 + at_s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")
    return f"{when}000Z {text}\n"


def run_with(tmp_path, lines):
    (tmp_path / "logs").mkdir()
    for server, text in lines.items():
        (tmp_path / "logs" / f"{server}.log").write_text(text)
    return RunDir(tmp_path)


def test_the_first_promotion_after_the_fault_beside_its_window_and_the_director_that_followed(tmp_path):
    run = run_with(tmp_path, {
        "db-primary": logged(-100.0, "INFO: promoted self to leader by acquiring session lock"),
        "db-replica": logged(5.0, "INFO: no action. I am (db-replica), a secondary") +
                      logged(20.43, "INFO: promoted self to leader by acquiring session lock")})
    changes = [DirectorChange(T0 + 10.0, 0.0, "marked down db-primary", "check"),
               DirectorChange(T0 + 22.5, 0.1, "marked up db-replica", "check")]
    window = patroni_window({"ttl": 20, "loop_wait": 5})
    found = first_patroni_promotion(run, T0, window, changes, lambda c: c.what.startswith("marked up"))
    assert (found.server, found.promoted_s, found.by, found.within_model) == ("db-replica", 20.43, "Patroni", True)
    assert (found.director_up_s, found.director_up) == (22.5, "director: marked up db-replica")
    assert (window.earliest_s, window.expected_s, window.latest_s) == (15, 17.5, 23.0)
    part = found.as_json()
    assert part["model"] == {"expected_s": 17.5, "earliest_s": 15, "latest_s": 23.0,
                             "basis": "Patroni's ttl 20 s, renewed every loop_wait 5 s"}
    assert "director_by" not in part and part["within_model"] is True


def test_no_promotion_after_the_fault_is_none(tmp_path):
    run = run_with(tmp_path, {"db-primary": logged(-100.0, "INFO: promoted self to leader by acquiring session lock")})
    assert first_patroni_promotion(run, T0, patroni_window({"ttl": 30, "loop_wait": 10}), [], lambda c: True) is None


def test_both_patroni_planes_time_the_promotion_alike():
    settings = {"ttl": 20, "loop_wait": 5}
    assert Patroni(settings).promotion_window() == PatroniDns(settings).promotion_window() == patroni_window(
        {**settings, "retry_timeout": 10})
