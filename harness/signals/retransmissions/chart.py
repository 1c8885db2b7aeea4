"""retransmissions.png: the blackholed sockets' retransmission ladder from the ss samples (the
longest-hung cells', up to MAX_LADDERS): retransmissions so far and the RTO, beside the fault."""
from pathlib import Path

import matplotlib

from ...measure.run_files import RunFiles
from ...measure.summary_record import RunSummary
from ..scenario_view import SignalScenario

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ...measure.run_record import caught_connection_samples  # noqa: E402
from ..chart_marks import WIDTH_IN, fault_window, last_recovery_s, legend_under, save  # noqa: E402

MAX_LADDERS = 8


def draw(run: RunFiles, scenario: SignalScenario, summary: RunSummary, path: Path) -> bool | None:
    """Returns False (and draws nothing) when the run has no ss samples of a socket that retransmitted
    (through a proxy the client's own leg may never have: its ladder is the proxy's server leg's)."""
    if summary.fault is None:
        return False
    t_fault = summary.fault.t
    cells = {c.name: c for c in scenario.cells}
    hung = sorted((c for c in summary.cells if c.probe.detect_s), key=lambda c: -(c.probe.detect_s or 0))[:MAX_LADDERS]
    series = []
    for c in hung:
        probe_text = run.read(run.probe_log(c.name))
        samples = [s for s in caught_connection_samples(run, cells[c.name], probe_text, t_fault)
                   if t_fault - 1 <= s.t <= t_fault + (c.probe.detect_s or 0) + 1]
        if any(s.retrans_total for s in samples):     # a connection that never retransmitted has no ladder
            series.append((c, samples))
    if not series:
        return False
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(WIDTH_IN, 6), sharex=True)
    for c, samples in series:
        x = [s.t - t_fault for s in samples]
        top.step(x, [s.retrans_total for s in samples], where="post", label=c.name)
        bottom.step(x, [s.rto_ms or 0 for s in samples], where="post", label=c.name)
    for ax in (top, bottom):
        fault_window(ax, last_recovery_s(summary.cells))
        ax.grid(True, alpha=0.3)
    top.set_ylabel("retransmissions so far")
    top.set_title("the blackholed connection's retransmission ladder (ss -tino every 0.5 s)")
    bottom.set_ylabel("RTO (ms)")
    bottom.set_xlabel("seconds after the fault")
    fig.tight_layout()
    legend_under(fig, top)
    save(fig, path)
    plt.close(fig)
    return True
