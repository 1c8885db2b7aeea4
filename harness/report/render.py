"""Everything a run directory's files allow: summary.json, summary.md, charts, the run's page,
results/index.html and the `latest` links. Reads only the run's files; no Docker."""
import json

from ..measure import burst, summary_record
from ..scenario import BurstScenario
from ..scenario.files import of_run
from ..signals.combined import summarize_failover
from ..store import RunDir
from . import burst_chart, charts, html, tables


def render(run: RunDir, link_latest: bool = True) -> summary_record.RunSummary:
    """Render the run; returns its summary, as written (summary.json) and read back as records."""
    scenario = of_run(run)
    summary = burst.summarize(run, scenario) if isinstance(scenario, BurstScenario) else summarize_failover(run, scenario)
    run.summary_json.write_text(json.dumps(summary, indent=1, default=str) + "\n")
    record = summary_record.read(summary)
    run.summary_md.write_text(tables.markdown(record))
    drawn = burst_chart.render(run, summary) if record.kind == "burst" else charts.render(run, record)
    html.run_page(run, record, drawn)
    html.index_page(run.results)
    if link_latest:
        run.link_latest()
    return record
