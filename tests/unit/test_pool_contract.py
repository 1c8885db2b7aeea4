"""What every connection pool of POOLS gives the lab (harness/pools/base.py's ConnectionPool),
checked on a scenario that puts it in front of two cells of an engine it speaks."""
import pytest

from harness import scenario
from harness.databases import DATABASES
from harness.load.clients import PROTOCOL_TITLES
from harness.measure.effects import NONE, Effect
from harness.pools import POOLS
from harness.setting import Setting


def pooled_scenario(name, pool):
    database = next(n for n, engine in DATABASES.items() if engine.wire_protocol in pool.protocols)
    return scenario.parse({
        "description": "contract", "database": database, "load": {"writer": False},
        "cells": [{"name": "first", "tcp_retries2": 5, "pool": name}, {"name": "second", "tcp_retries2": 5, "pool": name}],
        "steps": [{"fault": "ipvs_swap", "old": "db-primary", "new": "db-replica"}], "observe_s": 30}, "contract.yaml")


@pytest.mark.parametrize("name", list(POOLS))
def test_a_pool_runs_where_its_cell_is_is_stopped_by_its_own_pattern_and_reads_an_empty_log(name):
    pool = POOLS[name]
    parsed = pooled_scenario(name, pool)
    first, second = parsed.cells
    assert pool.name == name and set(pool.protocols) <= set(PROTOCOL_TITLES)
    assert pool.version_command and all(isinstance(s, Setting) for s in pool.settings.values())
    assert pool.port(parsed, first) != pool.port(parsed, second)      # cells may share a namespace
    alone = " ".join(pool.command(parsed, first, "10.0.0.10", 3306))
    entered = " ".join(pool.command(parsed, first, "10.0.0.10", 3306, "/run/netns/cell-first"))
    assert "/run/netns/cell-first" in entered and "/run/netns/" not in alone
    assert pool.process_pattern(first) in alone and pool.process_pattern(first) != pool.process_pattern(second)
    assert list(pool.closings("")) == [] and pool.version("") is None


@pytest.mark.parametrize("name", list(POOLS))
def test_a_fault_the_flows_do_not_notice_passes_the_pool_as_it_is(name):
    pool = POOLS[name]
    cell = pooled_scenario(name, pool).cells[0]
    unnoticed = Effect(NONE)
    assert pool.effect_on(unnoticed, cell) == unnoticed
