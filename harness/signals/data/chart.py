"""write-outcomes.png: the writer's attempts per second by what it was told (acknowledged, in
doubt, failed), the acknowledged ones the new primary lacks (lost) marked, beside the clients'
outage: from the fault to the last cell's recovery."""
from pathlib import Path

import matplotlib

from ...measure.run_files import RunFiles
from ...measure.summary_record import RunSummary
from ..scenario_view import SignalScenario

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..chart_marks import WIDTH_IN, legend_under, save  # noqa: E402

SERIES = (("ack", "acknowledged", "#6aa84f"), ("lost", "acknowledged, then lost", "#cc0000"),
          ("in_doubt", "in doubt", "#e69138"), ("failed", "failed", "#666666"))


def draw(run: RunFiles, scenario: SignalScenario, summary: RunSummary, path: Path) -> bool | None:
    part = summary.signals.get("data")
    if not part or not part.get("per_second"):
        return False
    seconds = part["per_second"]
    x = [s["t"] + 0.5 for s in seconds]
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 4))
    bottom = [0] * len(seconds)
    for key, label, colour in SERIES:
        values = [s[key] - (s["lost"] if key == "ack" else 0) for s in seconds]
        ax.bar(x, values, width=0.9, bottom=bottom, color=colour, label=label)
        bottom = [b + v for b, v in zip(bottom, values)]
    recovered = [c.probe.recover_s for c in summary.cells if c.probe.recover_s is not None]
    ax.axvspan(0, max(recovered) if recovered else max(x), color="#f4cccc", zorder=0, label="clients' outage")
    ax.axvline(0, color="#cc0000", linewidth=1)
    ax.set_xlabel("seconds after the fault (writes by the second they were sent in)")
    ax.set_ylabel("write attempts")
    ax.set_title(f"what became of each write: {part['rate_per_s']:g}/s through the VIP, {part['replication']} "
                 f"replication; {part.get('lost', '?')} acknowledged writes lost")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    legend_under(fig, ax)
    save(fig, path)
    plt.close(fig)
    return True
