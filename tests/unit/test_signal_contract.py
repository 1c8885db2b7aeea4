"""Every measured signal (harness/signals/) keeps the contract a run relies on: the loads it plans
are bounded in time and write inside the run, and its part of a cell's summary uses keys of its
own, so signals combine without overwriting each other."""
import re

import pytest

from harness import scenario
from harness.signals import SIGNALS, CellRecord, LoadPlan, RunContext
from harness.store import RunDir
from tests.unit.test_render import write_run

# scenarios whose loads between them exercise every signal's planning
PLANNED = ("matrix-short", "lvs-switchover", "nginx-switchover", "client-zoo-short")
CELL_KEYS = {"cell", "knobs", "predicted"}            # what the summary itself puts in every cell


def bounded_by(said, duration_s):
    """Whether a load's own command line ends it after duration_s: it is given that duration (a
    number among its arguments, e.g. --duration-s 100, --time=100, 100s), or it is a sampler's loop
    (harness/load/sampling.py: N samples, one every T seconds, covering it)."""
    loop = re.search(r"i < (\d+); .* read -r -t ([\d.]+);", said)
    if loop:
        covered, interval = (int(loop[1]) - 1) * float(loop[2]), float(loop[2])
        return duration_s - interval < covered <= duration_s
    numbers = {float(n) for n in re.findall(r"(?<![\w.])(\d+(?:\.\d+)?)(?=s?\b)", said)}
    return duration_s in numbers or int(duration_s) in numbers


def plans(tmp_path):
    for scenario_id in PLANNED:
        parsed, raw = scenario.load(scenario_id)
        yield LoadPlan(parsed, RunDir.create(parsed.id, raw, tmp_path), "10.213.1.10", "nftables")


@pytest.mark.parametrize("signal", SIGNALS, ids=lambda s: s.name)
def test_a_signals_loads_end_by_themselves_and_write_inside_the_run(signal, tmp_path):
    for plan in plans(tmp_path):
        for load in signal.loads(plan):
            assert bounded_by(" ".join(load.command) + load.first_input, plan.duration_s), (signal.name, load.command)
            outputs = [load.output] if load.output else [path for _, path in load.cells]
            assert outputs and all(plan.run.path in path.parents for path in outputs), (signal.name, load)


def test_every_signal_has_a_name_of_its_own_and_its_cell_keys_are_its_own(tmp_path):
    names = [signal.name for signal in SIGNALS]
    assert len(set(names)) == len(names)
    run = write_run(tmp_path)
    context = RunContext(run, scenario.of_run(run))
    [cell] = context.scenario.cells
    record = CellRecord(context, cell)
    seen = set(CELL_KEYS)
    for signal in SIGNALS:
        keys = set(signal.summarize_cell(record))
        assert not keys & seen, f"{signal.name} overwrites {keys & seen}"
        seen |= keys
        assert isinstance(signal.summarize_run(context), dict)
    assert {"probe", "survived"} <= seen
