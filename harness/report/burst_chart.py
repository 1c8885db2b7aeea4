"""connect-times.png of a burst run: each cell's connect() times, sorted, with the SYN
retransmission times marked."""
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..measure import burst  # noqa: E402
from ..signals.chart_marks import WIDTH_IN, legend_under, save  # noqa: E402
from ..measure.syn_model import syn_retransmit_times  # noqa: E402
from ..store import RunDir  # noqa: E402


def connect_times(run: RunDir, summary: Mapping[str, Any], path: Path) -> None:
    path.parent.mkdir(exist_ok=True)
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 5))
    for c in summary["cells"]:
        times = sorted(x["connect_s"] for x in burst.parse_connections(
            run.read(run.cell_file(c["cell"], "connections.jsonl"))) if x["connect_s"] is not None)
        if times:
            ax.step(times, [(i + 1) / c["connections"] for i in range(len(times))], where="post", label=c["cell"])
    namespaces = run.env().get("namespaces", {})
    linear = max((n.get("tcp_syn_linear_timeouts", 0) for n in namespaces.values()), default=0)
    times = syn_retransmit_times(linear, count=8)
    for t in times:
        ax.axvline(t, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel(f"connect() time, s (dotted: SYN retransmissions at {', '.join(f'{t:g}' for t in times)} s; "
                  f"tcp_syn_linear_timeouts={linear})")
    ax.set_ylabel("share of the burst connected")
    ax.set_title(f"{summary['scenario']}: connect times under a burst (steps = dropped SYNs retried)")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    legend_under(fig, ax)
    save(fig, path)
    plt.close(fig)


def render(run: RunDir, summary: Mapping[str, Any]) -> list[str]:
    if not summary["cells"]:
        return []
    connect_times(run, summary, run.chart("connect-times.png"))
    return [run.relative(run.chart("connect-times.png"))]
