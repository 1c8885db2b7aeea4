"""`make compare RUNS="a b ..."`: runs already on disk side by side on one page (the workshop's
"whole room" view: every participant's run of an exercise, or every exercise's run). Runs of one
scenario line up cell by cell; runs of different scenarios get their cells named
<scenario>/<cell>, one row each. No Docker: it reads the runs' summary.json and env.json."""
import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import store
from .errors import InvalidInput
from .measure import comparison
from .measure.summary_record import RunSummary
from .report import comparison_page


def parse_runs(words: Sequence[str]) -> list[tuple[str, store.RunDir]]:
    """'label=dir' or 'dir' words -> [(label, RunDir)]; a bare dir is labelled by its run name."""
    runs = []
    for word in words:
        label, sep, path = word.partition("=")
        if not sep:
            label, path = "", word
        run = store.RunDir(Path(path))
        if not run.summary_json.exists():
            raise InvalidInput(f"{path}: not a run directory with a summary.json (make report {path} renders one)")
        runs.append((label or run.name, run))
    if len(runs) < 2:
        raise InvalidInput("compare needs at least two runs: make compare RUNS=\"results/a/<run> results/b/<run>\"")
    labels = [label for label, _ in runs]
    if len(set(labels)) != len(labels):
        raise InvalidInput(f"two runs are labelled alike ({', '.join(labels)}); name them: RUNS=\"alice=dir bob=dir\"")
    return runs


def predictions_of(run: store.RunDir) -> dict[str, Any]:
    """{cell: seconds or 'never'} a participant predicted before the run (make exercise PREDICT=...)."""
    path = run.path / "exercise.json"
    return (json.loads(path.read_text()).get("predictions") or {}) if path.exists() else {}


def _failover_only(label: str, summary: RunSummary) -> RunSummary:
    if summary.kind == "burst":
        raise InvalidInput(f"{label}: a burst run ({summary.scenario}) has no recovery times to compare")
    return summary


def compare(runs: Sequence[tuple[str, store.RunDir]], out_dir: Path | None = None, line_up: bool = False,
            title: str | None = None) -> Path:
    """runs: [(label, RunDir)] -> the comparison page. line_up: cells named alike line up even
    across scenarios (scenarios written to share their cells, as the control planes' are)."""
    entries = [(label, _failover_only(label, run.summary_record()), run.env()) for label, run in runs]
    scenarios = list(dict.fromkeys(summary.scenario for _, summary, _ in entries))
    if len(scenarios) > 1 and not line_up:
        entries = [(label, dataclasses.replace(summary, cells=tuple(
                       dataclasses.replace(c, name=f"{summary.scenario}/{c.name}") for c in summary.cells)), env)
                   for label, summary, env in entries]
    result = dataclasses.replace(
        comparison.compare(entries),
        predictions={label: predicted for label, run in runs if (predicted := predictions_of(run))},
        pages={label: str(run.page) for label, run in runs})
    name = scenarios[0] if len(scenarios) == 1 else "several-scenarios"
    directory = out_dir or store.new_comparison_dir("compare", name)
    title = title or (f"{scenarios[0]}: {len(runs)} runs side by side" if len(scenarios) == 1
                      else f"{len(runs)} runs of {len(scenarios)} scenarios side by side")
    return comparison_page.render(directory, result, title)
