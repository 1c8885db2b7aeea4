"""Everything a run directory's files allow: summary.json, summary.md, charts, the run's page,
results/index.html and the `latest` links. Reads only the run's files; no Docker."""
import json
from typing import Any

from ..measure import burst
from ..scenario import BurstScenario
from ..scenario.files import of_run
from ..signals.combined import summarize_failover
from ..store import RunDir
from . import burst_chart, charts, html, tables


def render(run: RunDir, link_latest: bool = True) -> dict[str, Any]:
    """Render the run; returns its summary."""
    scenario = of_run(run)
    summary = burst.summarize(run, scenario) if isinstance(scenario, BurstScenario) else summarize_failover(run, scenario)
    run.summary_json.write_text(json.dumps(summary, indent=1, default=str) + "\n")
    run.summary_md.write_text(tables.markdown(summary))
    drawn = (burst_chart if summary.get("kind") == "burst" else charts).render(run, summary)
    html.run_page(run, summary, drawn)
    html.index_page(run.results)
    if link_latest:
        run.link_latest()
    return summary
