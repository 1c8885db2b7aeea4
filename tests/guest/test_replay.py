"""make replay on a short incident (tests/replay_incident: tcp_retries2=5, keepalived checking
every 2 s, a SQLAlchemy PyMySQL URL without a read timeout): the operator's cell and the cures
through one failover in the guest, each client's error bounded by the kernel's numbers
(kernel_facts) or the driver's own timeout, not by the harness's model; the ranking and its page
from the run. PyMySQL (the lab's probe) keeps the guest light: five JVMs in a two-vCPU emulated
guest reported their errors 0.6-1.8 s after the kernel or their timers had ended the wait."""
import itertools
import subprocess
from pathlib import Path

import pytest

from harness import replay as replay_module
from harness.report import browser
from tests.guest.conftest import PROJECT, containers_in
from tests.kernel_facts import (APP_TIMER_LATE_S, REPORT_LAG_GUEST_S, WHEEL_SLACK, assert_error_within, blackhole_bounds,
                                user_timeout_bounds)
from tests.clock_steps import once_more_if_the_clock_was_set
from tests.scenarios.conftest import cells, run_scenario_once

pytestmark = pytest.mark.guest
INCIDENT = Path(__file__).resolve().parents[1] / "replay_incident"


def test_a_short_incident_is_replayed_with_its_cures_ranked(guest, tmp_path):
    replay = replay_module.prepare(str(INCIDENT))
    run = once_more_if_the_clock_was_set(lambda: run_scenario_once(replay.scenario, replay.definition, tmp_path,
                                                                     project=PROJECT, engine=guest))
    assert containers_in(guest) == []
    ranked, page = replay_module.finish(replay, run, "6.12")
    summary = run.summary()
    by_name, lead = cells(summary), 0.1 + summary["fault"]["uncertainty_s"]
    # a busy connection: the operator's cell waits out the kernel's budget for tcp_retries2=5
    for name in ("yours",):
        assert_error_within(by_name[name], blackhole_bounds(5, lead, by_name[name]["predicted"]["base_rto_s"]), name,
                            REPORT_LAG_GUEST_S)
    assert_error_within(by_name["user-timeout-3000ms"], user_timeout_bounds(3.0, lead), "user-timeout-3000ms",
                        REPORT_LAG_GUEST_S)
    # PyMySQL's read_timeout=3: its own timer, started when the query was sent (the pair's too)
    for name in ("read-timeout-3s", "pair"):
        read = by_name[name]["probe"]["detect_s"]
        assert 3.0 - 0.1 <= read <= 3.0 + lead + APP_TIMER_LATE_S + 0.5, (name, read)
    # expire_nodest_conn=1: reset by the first retransmission after keepalived's removal (by 2x that time)
    reset = by_name["director-reset"]
    assert reset["lb"]["noticed_s"] <= reset["probe"]["detect_s"] <= 2 * reset["lb"]["noticed_by_s"] * (1 + WHEEL_SLACK) + lead
    # the pair is back once its director took the dead server out: through the replica, not before
    pair = by_name["pair"]
    assert pair["lb"]["noticed_s"] <= pair["probe"]["recover_s"] and pair["probe"]["server_after"] == "db-replica"
    # the ranking, from the run's own figures, in the model's order bar the machine's noise; keepalive, which
    # the model says saves nothing on a busy connection, was ranked and not run
    assert "keepalive-5-1-3" not in by_name and any(line.startswith("not run: SO_KEEPALIVE") for line in replay.lines())
    assert ranked.yours.back_s is not None and all(r.model_back is not None for r in ranked.cures)
    assert next(r for r in ranked.cures if r.cell == "pair").saved_s > 5
    # measured in the model's order wherever the model's windows part two cures: where they overlap,
    # each director's check phase decides (a run here: the pair back at 6.35 s, its director noticing
    # at 5.6 s; the user timeout's at 4.88 s, its director at 3.7 s; both in the model's 3.0-7.9 s)
    for a, b in itertools.permutations(ranked.cures, 2):
        if a.model_back[2] < b.model_back[1]:
            assert a.back_s is not None and (b.back_s is None or a.back_s <= b.back_s), (a.cell, a.back_s, a.model_back, b.cell, b.back_s, b.model_back)
    text = page.read_text()
    assert "Your clients hung" in text and "keepalived.conf:3: delay_loop 2" in text
    # the ranking as an operator's browser shows it: headless Chromium at both widths (report/browser.py)
    looked = subprocess.run(["make", "-s", "screenshots", f"RUN={run.path}"], capture_output=True, text=True, timeout=300)
    assert looked.returncode == 0, looked.stderr
    for width in browser.WIDTHS:
        assert f"replay.html at {width} px: charts loaded 0/0, page fits the window, 0 figure(s) wrapped" in looked.stdout
        assert (run.path / "screenshots" / f"replay-{width}.png").stat().st_size > 10_000
    assert (run.path / "incident" / "sysctl.txt").exists() and (run.path / "replay.json").exists()
