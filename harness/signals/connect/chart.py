"""connect-latency.png: connection setup through the VIP per second (load.connect): p50, p99,
p99.9 and max of the connects started in each second, and the connects that failed, beside the
fault (from the fault to its heal)."""
from pathlib import Path

import matplotlib

from ...measure.run_files import RunFiles
from ...measure.summary_record import RunSummary
from ..scenario_view import SignalScenario

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..chart_marks import WIDTH_IN, legend_under, save  # noqa: E402

SERIES = (("p50", "#3c78d8"), ("p99", "#e69138"), ("p99_9", "#cc0000"), ("max", "#666666"))


def draw(run: RunFiles, scenario: SignalScenario, summary: RunSummary, path: Path) -> bool | None:
    part = summary.signals.get("connect")
    if not part or not part["per_second"]:
        return False
    seconds = part["per_second"]
    x = [s["t"] + 0.5 for s in seconds]
    failed = [s["failed"] for s in seconds]
    if any(failed):
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(WIDTH_IN, 5.5), sharex=True,
                                          gridspec_kw={"height_ratios": [3, 1]})
    else:                   # no panel of zeros: the title says none failed
        fig, top = plt.subplots(figsize=(WIDTH_IN, 4.5))
        bottom = None
    for key, colour in SERIES:
        points = [(t, s[key]) for t, s in zip(x, seconds) if s[key] is not None]
        top.plot([t for t, _ in points], [v for _, v in points], color=colour, linewidth=1,
                 label=key.replace("_", "."))
    for t in part["syn_schedule"]["retransmitted_at_s"][:4]:
        top.axhline(t * 1000, color="grey", linestyle=":", linewidth=0.8)
    top.set_yscale("log")
    top.set_ylabel("connect() ms, established (log)")
    syns = ", ".join(f"{t:g}" for t in part["syn_schedule"]["retransmitted_at_s"][:4])
    top.set_title(f"connection setup through the VIP: {part['rate_per_s']} connects/s to port {part['port']}\n"
                  f"(dotted: SYN retransmissions at {syns} s)" + ("" if bottom else "; no connect failed"), fontsize=11)
    if bottom is not None:
        bottom.bar(x, failed, width=0.9, color="#cc0000", label="failed")
        bottom.set_ylabel("failed")
    (bottom or top).set_xlabel("seconds after the fault (connects by the second they started in)")
    healed = part["healed_after_s"]
    axes = [ax for ax in (top, bottom) if ax is not None]
    for ax in axes:
        ax.axvspan(0, healed if healed is not None else max(x), color="#f4cccc", zorder=0)
        ax.axvline(0, color="#cc0000", linewidth=1)
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    legend_under(fig, *axes, columns=5)
    save(fig, path)
    plt.close(fig)
    return True
