"""make replay FROM=dir/: an incident's folder replayed as one failover (build.py), and what the
run wrote read into the cures ranked (ranking.py) on a page of its own (page.py)."""
import dataclasses
import json
import shutil

from .. import imports
from .. import scenario as scenario_module
from . import build, page, ranking


@dataclasses.dataclass(frozen=True)
class Replay:
    incident: imports.Incident
    definition: dict          # the scenario, as a scenario file would say it
    scenario: object          # ... parsed
    series: str               # the Debian kernel series the dump's kernel maps to
    chosen: tuple             # lines: what the build chose and why

    def lines(self):
        return self.incident.lines() + list(self.chosen)


def prepare(folder):
    incident = imports.from_dir(folder)
    definition, series, chosen = build.scenario(incident)
    parsed = scenario_module.parse_definition(definition, f"the replay of {folder}", "replay")
    return Replay(incident, definition, parsed, series, tuple(chosen))


def finish(replay, run, kernel):
    """replay.json, the incident's files and replay.html in the run's directory; (ranking, page)."""
    yours = replay.definition["cells"][0]
    haproxy = replay.incident.haproxy
    cures, _ = build.cures_of(yours, haproxy.settings if haproxy else None)
    record = {"folder": replay.incident.folder, "kernel": kernel, "imports": replay.incident.lines(),
              "director": "HAProxy" if haproxy else "keepalived",
              "chosen": list(replay.chosen), "cures": [{"name": c.name, "change": c.change, "cost": c.cost}
                                                       for c in cures],
              "incident": dict(replay.incident.incident_times.after_death_s) if replay.incident.incident_times else {}}
    (run.path / "replay.json").write_text(json.dumps(record, indent=1) + "\n")
    shutil.copytree(replay.incident.folder, run.path / "incident", dirs_exist_ok=True)
    ranked = ranking.rank(run.summary(), record)
    return ranked, page.render(run.path / "replay.html", ranked, record, run.page.name)
