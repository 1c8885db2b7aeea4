"""pgbouncer as a cell's pool (harness/pools/pgbouncer.py): what a scenario may ask of it, the
pgbouncer.ini it writes, how its log reads, and what the model expects behind it (bounds from
docs/facts/kernel.md and pgbouncer's janitor period, not from the pool module)."""
import copy

import pytest

from harness import scenario
from harness.measure import effects
from harness.pools import pgbouncer_log
from harness.pools.base import first_after
from harness.measure.predict import predict
from harness.pools import POOLS, effect_through_pool
from harness.scenario import ScenarioError
from tests.kernel_facts import blackhole_bounds, rules_span

GOOD = {
    "description": "test", "database": "postgres", "load": {"probe": {"proto": "mysql"}, "writer": False},
    "cells": [{"name": "pooled", "tcp_retries2": 5, "pgbouncer": {"query_timeout": 4, "tcp_user_timeout": 5000}},
              {"name": "plain", "tcp_retries2": 5, "pool": "pgbouncer"}],
    "steps": [{"fault": "ipvs_swap", "old": "db-primary", "new": "db-replica"}], "observe_s": 30,
}

LOG = """\
2026-11-29 13:04:34.251 UTC [8] LOG process up: PgBouncer 1.18.0, libevent 2.1.12-stable (epoll), adns: c-ares 1.18.1
2026-11-29 13:04:35.286 UTC [8] LOG C-0x55eeece6e3e0: (nodb)/(nouser)@127.0.0.1:40960 registered new auto-database: db=sbtest
2026-11-29 13:04:35.293 UTC [8] LOG S-0x55eeece75ac0: sbtest/sbtest@10.213.1.10:3306 new connection to server (from 10.213.1.128:37700)
2026-11-29 13:04:50.609 UTC [8] LOG S-0x55eeece75ac0: sbtest/sbtest@10.213.1.10:3306 closing because: server conn crashed? (age=15s)
2026-11-29 13:04:50.610 UTC [8] LOG C-0x55eeece6e3e0: sbtest/sbtest@127.0.0.1:40960 closing because: query timeout (age=15s)
"""


def parse(raw):
    return scenario.parse(raw, "test.yaml")


def test_a_cell_names_its_pool_and_its_settings():
    cells = {c.name: c for c in parse(GOOD).cells}
    assert cells["pooled"].pool == "pgbouncer"
    assert dict(cells["pooled"].pool_settings) == {"query_timeout": 4, "tcp_user_timeout": 5000}
    assert cells["plain"].pool == "pgbouncer" and cells["plain"].pool_settings == ()


@pytest.mark.parametrize("change, message", [
    (lambda raw: raw.update(database="mysql"), "goes through pgbouncer, which speaks PostgreSQL"),
    (lambda raw: raw["cells"][0]["pgbouncer"].update(query_timout=4), "query_timout"),
    (lambda raw: raw["cells"][0]["pgbouncer"].update(query_timeout="4s"), "query_timeout"),
    (lambda raw: raw["cells"][1].update(pool="odyssey"), "odyssey"),
    (lambda raw: raw["cells"][1].update(idle_s=5), "idle_s behind pgbouncer is not modelled"),
])
def test_what_a_pool_cannot_take_is_refused_by_name(change, message):
    raw = copy.deepcopy(GOOD)
    change(raw)
    with pytest.raises(ScenarioError, match=message.replace("?", r"\?")):
        parse(raw)


def test_its_ini_logs_every_client_in_as_the_labs_account_on_the_vip_and_listens_on_the_cells_port():
    parsed = parse(GOOD)
    pool = POOLS["pgbouncer"]
    ini = pool.config(parsed, parsed.cells[0], "10.0.0.100", 3306)
    assert "* = host=10.0.0.100 port=3306 dbname=sbtest user=sbtest password=sbtest" in ini
    assert "listen_addr = 127.0.0.1\nlisten_port = 6432\n" in ini and "query_timeout = 4\n" in ini
    assert pool.port(parsed, parsed.cells[1]) == 6433      # cells may share a namespace: one port each


def test_its_log_says_when_and_why_it_closed_each_side():
    found = pgbouncer_log.closings(LOG)
    assert [(c.side, c.reason) for c in found] == [("server", "server conn crashed?"), ("client", "query timeout")]
    assert found[0].t == pytest.approx(1795957490.609)
    assert first_after(found, "client", found[0].t).reason == "query timeout"
    assert pgbouncer_log.version(LOG) == "PgBouncer 1.18.0"


def test_its_log_names_the_local_port_of_each_server_connection_it_opened():
    opened = pgbouncer_log.server_openings(LOG)
    assert [o.local_port for o in opened] == [37700]          # the address ss shows the server leg's socket at
    assert opened[0].t == pytest.approx(1795957475.293)
    assert pgbouncer_log.server_openings(LOG.replace("37700", "x")) == []


def test_behind_it_a_blackhole_is_a_hang_the_pools_limits_end():
    cells = {c.name: c for c in parse(GOOD).cells}
    hang = effect_through_pool(cells["plain"], effects.Effect(effects.BLACKHOLE))
    assert hang.kind == effects.APP_HANG
    window = predict(cells["plain"], hang, 0.1, 0.0)
    soonest, latest = rules_span(5)                  # docs/facts/kernel.md's rules, every phase of the wheel
    assert window.earliest_s <= soonest and latest + 0.1 <= window.latest_s <= blackhole_bounds(5, 0.1)[0][1] + 0.3
    pooled = predict(cells["pooled"], effect_through_pool(cells["pooled"], effects.Effect(effects.BLACKHOLE)), 0.1, 0.0)
    assert 4.0 <= pooled.earliest_s and pooled.latest_s <= 4.0 + 1 / 3 + 0.4, pooled
    assert "query_timeout" in pooled.basis


def test_a_reset_reaches_the_pool_as_it_would_the_client():
    cell = parse(GOOD).cells[1]
    reset = effects.Effect(effects.RESET)
    assert effect_through_pool(cell, reset) is reset
