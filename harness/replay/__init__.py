"""make replay FROM=dir/: an incident's folder replayed as one failover (build.py), and what the
run wrote read into the cures ranked (ranking.py) on a page of its own (page.py)."""
import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

from .. import imports
from .. import scenario as scenario_module
from ..measure.predict import Window
from ..store import RunDir
from . import build, page, ranking


@dataclasses.dataclass(frozen=True)
class Replay:
    incident: imports.Incident
    plan: build.Plan          # the scenario the model's ranking makes of it
    scenario: scenario_module.Scenario | scenario_module.BurstScenario   # ... parsed

    @property
    def definition(self) -> dict[str, Any]:
        return self.plan.definition

    @property
    def series(self) -> str:
        return self.plan.series

    def lines(self) -> list[str]:
        return self.incident.lines() + list(self.plan.lines)


def prepare(folder: str | Path, full: bool = False) -> Replay:
    incident = imports.from_dir(str(folder))
    plan = build.plan(incident, full)
    parsed = scenario_module.parse_definition(plan.definition, f"the replay of {folder}", "replay")
    return Replay(incident, plan, parsed)


def _model(window: Window | None) -> dict[str, float] | None:
    if window is None or window.expected_s is None:
        return None
    earliest, expected, latest = window.bounds()
    return {"expected_s": round(expected, 3), "earliest_s": round(earliest, 3), "latest_s": round(latest, 3)}


def record_of(replay: Replay, kernel: str) -> dict[str, Any]:
    """What replay.json keeps: the import, the choices, and each cure as the model ranked it."""
    model = replay.plan.ranking
    yours = model.yours
    return {"folder": replay.incident.folder, "kernel": kernel, "imports": replay.incident.lines(),
            "director": "HAProxy" if replay.incident.haproxy else "keepalived",
            "chosen": list(replay.plan.lines), "waited_out": replay.plan.waited_out,
            "observe_s": replay.definition["observe_s"],
            "yours": {"error": _model(yours.error), "back": _model(yours.back)},
            "cures": [{"name": row.cure.name, "change": row.cure.change, "cost": row.cure.cost, "layer": row.cure.layer,
                       "error": _model(row.answer.error), "back": _model(row.answer.back), "saved_s": row.saved_s,
                       **({"measured_by": replay.plan.stood_in[row.cure.name]} if row.cure.name in replay.plan.stood_in
                          else {})}
                      for row in model.rows],
            "incident": dict(replay.incident.incident_times.after_death_s) if replay.incident.incident_times else {}}


def finish(replay: Replay, run: RunDir, kernel: str) -> tuple[ranking.Ranking, Path]:
    """replay.json, the incident's files and replay.html in the run's directory; (ranking, page)."""
    record = record_of(replay, kernel)
    (run.path / "replay.json").write_text(json.dumps(record, indent=1) + "\n")
    shutil.copytree(replay.incident.folder, run.path / "incident", dirs_exist_ok=True)
    ranked = ranking.rank(run.summary(), record)
    return ranked, page.render(run.path / "replay.html", ranked, record, run.page.name)
