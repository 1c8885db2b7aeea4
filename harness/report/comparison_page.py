"""A comparison of runs (harness/measure/comparison.py) as a page: one recovery chart with every
run's cells side by side, the table of flagged differences, and comparison.json. Shapes as well
as colours tell the runs apart, so the chart survives a black-and-white printout."""
import html as html_lib
import json
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..measure.comparison_record import CellView, Comparison  # noqa: E402
from ..signals.chart_marks import WIDTH_IN, legend_under, save  # noqa: E402
from .html import page, table  # noqa: E402

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p", "d")   # a room of 20: shapes and colours (tab20)
AXIS_FROM_S = 0.01           # a reset arrives within tens of ms
AXIS_TO_S = 2000
NEVER_AT_S = 1500            # a prediction of "never", at the axis's right end


def chart(comparison: Comparison, path: Path) -> None:
    cells, runs = comparison.cells, [r.label for r in comparison.runs]
    predictions = comparison.predictions or {}
    # each row spreads the runs that have the cell (runs of other scenarios have not)
    present = [[i for i, label in enumerate(runs) if cell.by_run.get(label)] for cell in cells]
    height = sum(0.25 * max(1, len(p)) + 0.1 for p in present) + 1.8
    fig, ax = plt.subplots(figsize=(WIDTH_IN, max(3.0, height)))
    colours = matplotlib.colormaps["tab20"] if len(runs) > 10 else matplotlib.colormaps["tab10"]
    for row, cell in enumerate(cells):
        for k, i in enumerate(present[row]):
            label, view = runs[i], cell.by_run[runs[i]]
            if view is None:                # not in present
                continue
            y = row + (k - (len(present[row]) - 1) / 2) * 0.8 / len(present[row])
            if view.expected_s is not None and view.earliest_s is not None and view.latest_s is not None:
                low = max(view.earliest_s, AXIS_FROM_S)
                ax.plot([low, max(view.latest_s, low * 1.02)], [y, y], color=colours(i), alpha=0.35, linewidth=5,
                        solid_capstyle="butt")
            marker = MARKERS[i % len(MARKERS)]
            guess = predictions.get(label, {}).get(cell.name)
            if guess is not None:          # what the participant wrote down first: a cross ("never": at the right end)
                at = NEVER_AT_S if isinstance(guess, str) else max(guess, AXIS_FROM_S)
                ax.plot(at, y, "x", color=colours(i), markersize=7, markeredgewidth=1.5,
                        label="prediction (x)" if "prediction (x)" not in ax.get_legend_handles_labels()[1] else None)
                if isinstance(guess, str):
                    ax.annotate(guess, (at, y), xytext=(-6, 0), textcoords="offset points", ha="right", va="center",
                                fontsize=9, color=colours(i))
            if view.detect_s is not None:
                ax.plot(max(view.detect_s, AXIS_FROM_S), y, marker, color=colours(i), markersize=7,
                        markeredgecolor="black", label=label if label not in ax.get_legend_handles_labels()[1]
                        else None)
            elif view.observed_s and view.expected_s is not None and view.earliest_s is not None:
                # still waiting when the run stopped watching: hollow, a dotted line on to the window
                ax.plot([view.observed_s, view.earliest_s], [y, y], ":", color=colours(i), linewidth=1)
                ax.plot(view.observed_s, y, marker, markerfacecolor="none", markeredgecolor=colours(i),
                        markersize=7)
    ax.set_xscale("log")
    ax.set_xlim(AXIS_FROM_S, AXIS_TO_S)
    ax.set_yticks(range(len(cells)), [c.name for c in cells], fontsize=9)
    ax.invert_yaxis()
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.set_xlabel("seconds after the fault until the first error (log scale)\nbars: each run's model window; "
                  "hollow: no error yet when the run stopped watching" + ("; x: a prediction, 'never' at the right end" if predictions else ""))
    scenarios = sorted({r.scenario for r in comparison.runs})
    ax.set_title(f"{scenarios[0]}: the same cells, run by run" if len(scenarios) == 1
                 else "runs of " + ", ".join(scenarios))
    fig.tight_layout()
    legend_under(fig, ax, columns=4)
    save(fig, path)
    plt.close(fig)


def _guess(guess: str | float) -> str:
    return guess if isinstance(guess, str) else f"{guess:g} s"


def _run_link(directory: Path, name: str, page: str | None) -> str:
    """The run's name, a link to its page (relative, so the folders move together) when it has one."""
    if not page or not Path(page).exists():
        return html_lib.escape(name)
    return f"<a href='{html_lib.escape(os.path.relpath(page, directory))}'>{html_lib.escape(name)}</a>"


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f} s"


def facts_section(comparison: Comparison) -> str:
    """The kernels' own differences: HZ, the measured base RTO, the sysctl defaults that differ."""
    facts, labels = comparison.kernel_facts, [r.label for r in comparison.runs]
    if not facts or len(labels) < 2:
        return ""
    def value(v: object, unit: str = "") -> str:
        return "absent" if v is None else html_lib.escape(f"{v}{unit}")
    rows = [["HZ"] + [value(facts["hz"].get(label)) for label in labels] + ["timer granularity: the slack of every timer"],
            ["base RTO measured"] + [value(facts["base_rto_ms"].get(label), " ms") for label in labels]
            + ["the first rung of the retransmission ladder (each run's own path)"]]
    rows += [[html_lib.escape(row["name"])] + [value(row["values"].get(label)) if label in row["values"]
                                               else "not kept" for label in labels]
             + [html_lib.escape(row["bearing"] or "no bearing on the lab's figures known")]
             for row in facts["sysctls"]]
    missing = [label for label in labels if label not in facts["kept"]]
    note = (f"<p>Runs made before kernel facts were kept: {html_lib.escape(', '.join(missing))}.</p>"
            if missing else "")
    differ = len(facts["sysctls"])
    return ("<h2>What differs between the kernels</h2><p>HZ, the base RTO each run measured, and every TCP "
            "and IPVS sysctl whose default (what a new network namespace starts with) is not the same on all "
            "of them, those that move a failover's figures first: "
            + ("none differs" if not differ else "1 differs" if differ == 1 else f"{differ} differ") + ".</p>"
            + note + table(["", *labels, "what it does here"], rows))


def cell_entry(view: CellView | None, guess: str | float | None = None) -> str:
    """One run's entry for a cell: its detect beside its model window, what its control plane did
    (its change's LB noticed, a promotion of its own, a step's change), and a prediction's guess."""
    window = "never" if not view or view.expected_s is None else f"{view.earliest_s:.1f}–{view.latest_s:.1f} s"
    mark = (" <span class='no'>outside</span>" if view and view.within_window is False
            else f" <span class='no' title='{html_lib.escape(view.unknown)}'>unknown</span>" if view and view.unknown
            else "")
    noticed = view.lb_noticed_s if view else None
    lb = f"<br><small>LB noticed {noticed[0]:.2f}–{noticed[1]:.2f} s</small>" if noticed else ""
    promoted = view.promoted if view else None
    if promoted:
        lb += f"<br><small>{html_lib.escape(promoted[0])} promoted {promoted[1]:.2f} s</small>"
    stepped = view.stepped if view else None
    if stepped:
        lb += f"<br><small>changed {stepped[1]:.2f} s: {html_lib.escape(stepped[0])}</small>"
    predicted = "" if guess is None else f"<br><small>predicted {html_lib.escape(_guess(guess))}</small>"
    return f"{_seconds(view.detect_s if view else None)} ({window}){mark}{lb}{predicted}"


def render(directory: str | os.PathLike[str], comparison: Comparison, title: str) -> Path:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "comparison.json").write_text(json.dumps(comparison.as_json(), indent=1) + "\n")
    chart(comparison, directory / "comparison.png")
    labels = [r.label for r in comparison.runs]
    pages, predictions = comparison.pages or {}, comparison.predictions or {}
    runs = table(["run", "scenario", "kernel", "where", "datapath", "control plane", "results"],
                 [[html_lib.escape(r.label), html_lib.escape(r.scenario), html_lib.escape(str(r.kernel)),
                   html_lib.escape(r.where), html_lib.escape(str(r.datapath)),
                   html_lib.escape(r.control or "manual"), _run_link(directory, r.run, pages.get(r.label))]
                  for r in comparison.runs])
    header = ["cell"] + [f"{label}: detect (window)" for label in labels] + ["differences"]
    rows = []
    for cell in comparison.cells:
        row = [html_lib.escape(cell.name)]
        for label in labels:
            row.append(cell_entry(cell.by_run.get(label), predictions.get(label, {}).get(cell.name)))
        row.append("<br>".join(html_lib.escape(f"{f.run}: "
                                                + (f"{f.delta_s:+.3f} s (tolerance ±{f.tolerance_s:.3f} s): "
                                                   if f.delta_s is not None else "") + f.what)
                               for f in cell.flags) or "—")
        rows.append(row)
    flagged = sum(1 for c in comparison.cells if c.flags)
    body = (f"<h1>{html_lib.escape(title)}</h1>{runs}"
            f"<p>{flagged} of {len(comparison.cells)} cells differ from {html_lib.escape(comparison.reference)} "
            "by more than their tolerance (from the model windows, as for baselines).</p>"
            "<img src='comparison.png' alt='comparison'>" + table(header, rows) + facts_section(comparison) +
            "<p>Files: <a href='comparison.json'>comparison.json</a></p>")
    (directory / "index.html").write_text(page(title, body))
    return directory / "index.html"
