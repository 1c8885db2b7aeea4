"""sysbench's pace: a rate by default, kept below what fills its event queue over the scenario's
longest hang, and its paced report lines read as unpaced ones."""
import re

import pytest

from harness import scenario
from harness.load.sysbench import run_command
from harness.measure.sysbench_log import parse
from harness.scenario import ScenarioError
from harness.scenario.loads import DEFAULT_SYSBENCH_RATE

# sysbench 1.0.20 at --rate=20000 with its server stopped after 4 s (the measurement behind SYSBENCH_QUEUE).
PACED_LOG = """\
1795858772.853798011 [ 4s ] thds: 1 tps: 362.98 qps: 7266.53 (r/w/o: 5088.67/1451.91/725.95) lat (ms,95%): 3911.79 err/s: 0.00 reconn/s: 0.00
1795858772.856595730 [ 4s ] queue length: 78185, concurrency: 1
1795858774.852979864 [ 6s ] thds: 1 tps: 0.00 qps: 0.00 (r/w/o: 0.00/0.00/0.00) lat (ms,95%): 0.00 err/s: 0.00 reconn/s: 0.00
1795858775.492144320 FATAL: The event queue is full. This means the worker threads are unable to keep up with the specified event generation rate
1795858775.853230719 [ 7s ] queue length: 131071, concurrency: 1
"""


def _sysbench(**overrides):
    parsed, _ = scenario.load("lvs-switchover", overrides)
    return parsed.sysbench


def test_the_seed_runs_at_the_default_rate_and_says_so_on_its_command_line():
    paced = _sysbench()
    assert paced.rate == DEFAULT_SYSBENCH_RATE
    assert f"--rate={DEFAULT_SYSBENCH_RATE}" in run_command(paced, "10.0.0.10", 60)


def test_a_long_observation_lowers_the_default_below_a_full_queue():
    paced = _sysbench(observe_s=7000)
    measured_queue = max(int(n) for n in re.findall(r"queue length: (\d+)", PACED_LOG))
    assert 0 < paced.rate < DEFAULT_SYSBENCH_RATE and paced.rate * 7000 < measured_queue


def test_a_rate_that_would_fill_the_queue_is_refused_and_zero_is_unpaced():
    load = {"sysbench": {"threads": 1, "rate": 200}, "probe": {"proto": "mysql"}}
    with pytest.raises(ScenarioError, match="load.sysbench.rate: 200 .* give at most 1"):
        _sysbench(load=load)
    load["sysbench"]["rate"] = 0
    assert "--rate=0" in run_command(_sysbench(load=load), "10.0.0.10", 60)


def test_paced_reports_parse_like_unpaced_ones():
    assert [(r.second, r.tps) for r in parse(PACED_LOG)] == [(4, 362.98), (6, 0.0)]
