"""Every measured signal (harness/signals/) keeps the contract a run relies on: it is one folder
named after it; the loads it plans are bounded in time and write inside the run; its files are
its own; its part of a cell's summary uses keys of its own, those its typed record declares, so
signals combine without overwriting each other; and its page section reads only its own parts."""
import importlib
import re
import typing
from pathlib import Path

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


@pytest.mark.parametrize("signal", SIGNALS.members(), ids=lambda s: s.name)
def test_a_signals_loads_end_by_themselves_and_write_inside_the_run(signal, tmp_path):
    for plan in plans(tmp_path):
        for load in signal.loads(plan):
            assert bounded_by(" ".join(load.command) + load.first_input, plan.duration_s), (signal.name, load.command)
            outputs = [load.output] if load.output else [path for _, path in load.cells]
            assert outputs and all(plan.run.path in path.parents for path in outputs), (signal.name, load)


def test_every_signal_has_a_name_of_its_own_and_its_cell_keys_are_its_own(tmp_path):
    names = [signal.name for signal in SIGNALS.members()]
    assert len(set(names)) == len(names)
    run = write_run(tmp_path)
    context = RunContext(run, scenario.of_run(run))
    [cell] = context.scenario.cells
    record = CellRecord(context, cell)
    seen = set(CELL_KEYS)
    for signal in SIGNALS.members():
        keys = set(signal.summarize_cell(record))
        assert not keys & seen, f"{signal.name} overwrites {keys & seen}"
        seen |= keys
        assert signal.summarize_run(context) is None or isinstance(signal.summarize_run(context), dict)
    assert {"probe", "survived"} <= seen


SIGNALS_DIR = Path(__file__).resolve().parents[2] / "harness" / "signals"
SHARED_PARTS = {"cells": {"probe"}}      # each cell's outcome, which any section may show beside its own figures


def cell_keys(signal):
    """The keys its summarize_cell's typed record declares (none: it adds nothing to a cell)."""
    declared = typing.get_type_hints(type(signal).summarize_cell).get("return")
    return set(getattr(declared, "__annotations__", {}))


def test_each_signal_is_one_folder_named_after_it_and_every_folder_is_registered():
    folders = {p.parent.name for p in SIGNALS_DIR.glob("*/__init__.py")}
    assert folders == {signal.name for signal in SIGNALS.members()}
    for signal in SIGNALS.members():
        assert type(signal).__module__ == f"harness.signals.{signal.name}", signal


def test_a_signals_files_are_its_own_and_inside_the_run(tmp_path):
    run = RunDir(tmp_path / "s" / "r")
    seen = {}
    for signal in SIGNALS.members():
        for key, template in signal.files.items():
            names = dict.fromkeys(re.findall(r"{(\w+)}", template), "x")
            path = signal.file(run, key, **names)
            assert run.path in path.parents, (signal.name, key)
            assert template not in seen, f"{signal.name} and {seen.get(template)} share {template}"
            seen[template] = signal.name
    shared = {run.probe_log("x"), run.sysbench_log("x"), run.ss_samples("x"), run.director_table("x"),
              run.director_flows("x"), run.service_log("x"), run.env_file, run.events_file}
    mine = {signal.file(run, key, **dict.fromkeys(re.findall(r"{(\w+)}", t), "x"))
            for signal in SIGNALS.members() for key, t in signal.files.items()}
    assert not mine & shared


def test_a_signals_cell_entries_are_the_ones_its_record_declares(tmp_path):
    run = write_run(tmp_path)
    context = RunContext(run, scenario.of_run(run))
    [cell] = context.scenario.cells
    record = CellRecord(context, cell)
    for signal in SIGNALS.members():
        assert set(signal.summarize_cell(record)) <= cell_keys(signal), signal.name


@pytest.mark.parametrize("signal", [s for s in SIGNALS.members() if s.section], ids=lambda s: s.name)
def test_a_section_reads_its_own_signals_parts_and_each_cells_outcome_only(signal):
    reads = signal.section.READS
    assert set(reads.get("signals", ())) <= {signal.name}, reads
    assert set(reads.get("cells", ())) <= cell_keys(signal) | SHARED_PARTS["cells"], reads
    assert set(reads) <= {"signals", "cells"}
    for name in ("TITLE", "READS", "blocks"):
        assert hasattr(signal.section, name), name


@pytest.mark.parametrize("signal", [s for s in SIGNALS.members() if s.chart or s.lateness], ids=lambda s: s.name)
def test_a_signals_chart_and_lateness_are_modules_of_its_own_folder(signal):
    if signal.chart:
        assert signal.chart.endswith(".png")
        assert callable(importlib.import_module(f"harness.signals.{signal.name}.chart").draw)
    if signal.lateness:
        assert signal.lateness.__name__ == f"harness.signals.{signal.name}.lateness"
        assert callable(signal.lateness.reason) and callable(signal.lateness.summary_note)
