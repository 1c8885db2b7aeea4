"""replay.html and the terminal's table of a replay: the headline, the cures ranked by what they
measured with the model's figures beside, what the import used and left out."""
import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..report.html import IMAGE_CHECK, LAYOUT_CHECK
from ..signals.machine import lateness as saturation
from ..signals.retransmissions import lateness as late_report
from .ranking import Ranking, Row, error_window

STYLE = ("body{font-family:sans-serif;max-width:75em;margin:2em auto;padding:0 .5em;color:#222}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .5em;text-align:left;"
         "vertical-align:top}td.n{text-align:right;white-space:nowrap}td.cost,.by{font-size:85%;color:#444}"
         ".out{color:#b00}.wait{color:#555;font-style:italic}pre{background:#f6f6f6;padding:.6em;white-space:pre-wrap}"
         ".scroll{overflow-x:auto}")


def _back(row: Row) -> str:
    if row.back_s is not None:
        return f"{row.back_s:.1f} s"
    return "still waiting" if row.still_waiting else "not back"


def _at(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.1f} s"


def _model_back(row: Row) -> str:
    return "-" if row.model_back is None else f"{row.model_back[0]:.1f} s"


def _saved(row: Row) -> str:
    return "" if row.saved_s is None else f"{row.saved_s:.1f} s"


def _error(row: Row) -> str:
    if row.still_waiting:
        seen = f"; {row.ladder[0]} retransmissions {'on' if row.ladder[1] else 'off'} the model's ladder" if row.ladder else ""
        return f"nothing yet{seen}"
    return f"{row.error} at {_at(row.error_s)}"


def _outside(row: Row) -> str:
    """'' in the window; ' (outside)', with what the run measured beside it: the kernel's own end in
    the window and the client's report after it, a saturated CPU."""
    if row.within_model is not False:
        return ""
    why = ([late_report.phrase(row.kernel_in_window[0], row.kernel_in_window[1], row.report)]
           if row.kernel_in_window else []) + \
        ([saturation.phrase(row.busy_while_late)] if row.busy_while_late is not None else [])
    return f" (outside, {'; '.join(why)})" if why else " (outside)"


def _late_note(ranking: Ranking) -> str:
    rows = (ranking.yours, *ranking.cures)
    notes = [late_report.note([(r.cell, *r.kernel_in_window) for r in rows if r.kernel_in_window]),
             saturation.note([(r.cell, r.busy_while_late) for r in rows if r.busy_while_late is not None])]
    return " ".join(n for n in notes if n)


def _lags_note(ranking: Ranking) -> str:
    if not ranking.report_lags:
        return ""
    said = ", ".join(f"{runtime} +{lag:.1f} s ({cell})" for runtime, lag, cell in ranking.report_lags)
    return (f"How late each runtime reported its own read timeout this run: {said}. A cell whose kernel gave up in "
            "its window and whose client reported no later than its runtime's lag is late by the runtime, not the model.")


def _saved_note(ranking: Ranking) -> str:
    if ranking.saved_against_model:
        return ("Your own cell was still waiting when the run ended, as the model said it would be: each cure's "
                "\"saved\" is counted against the model's figure for your back again.")
    return ""


def terminal(ranking: Ranking) -> str:
    lines = [ranking.headline(), "",
             f"  {'cell':<22} {'error':>8} {'model':>13} {'back':>13} {'model':>8} {'saved':>8}  change"]
    for r in (ranking.yours, *ranking.cures):
        window = error_window(r.model) + ("!" if r.within_model is False else "")
        lines.append(f"  {r.cell:<22} {_at(r.error_s):>8} {window:>13} {_back(r):>13} {_model_back(r):>8} "
                     f"{_saved(r):>8}  {r.change}")
    notes = [n for n in (_saved_note(ranking), _lags_note(ranking), _late_note(ranking)) if n]
    return "\n".join(lines + [f"! {note}" for note in notes])


def render(path: Path, ranking: Ranking, replay: Mapping[str, Any], run_page: str) -> Path:
    rows = []
    for r in (ranking.yours, *ranking.cures):
        outside = ' class="out"' if r.within_model is False else (' class="wait"' if r.still_waiting else "")
        by = f"<div class=by>measured by {html.escape(r.measured_by)}</div>" if r.measured_by else ""
        rows.append(f"<tr><td>{html.escape(r.cell)}</td><td>{html.escape(r.change)}{by}</td><td class='n value'>{_back(r)}</td>"
                    f"<td class='n value'>{_model_back(r)}</td><td class='n value'>{_saved(r)}</td><td>{html.escape(_error(r))}</td>"
                    f"<td{outside}>{error_window(r.model)}{_outside(r)}</td>"
                    f"<td class=cost>{html.escape(r.cost)}</td></tr>")
    notes = [n for n in (_saved_note(ranking), _lags_note(ranking), _late_note(ranking)) if n]
    body = [f"<h1>Replay of {html.escape(replay['folder'])}</h1>", f"<p><b>{html.escape(ranking.headline())}</b></p>",
            "<h2>What would have cut it, ranked by the time saved</h2>",
            "<div class=scroll><table><tr><th>cell</th><th>change</th><th>back after the death</th><th>the model said</th>"
            "<th>saved</th><th>the client saw</th><th>model (error)</th><th>cost</th></tr>", *rows, "</table></div>",
            *[f"<p>{html.escape(note)}</p>" for note in notes],
            f"<p>Every cell ran through the same failover: one silent death of the primary behind "
            f"{html.escape(replay.get('director', 'keepalived'))} with your timers; a cure of the load balancer's "
            "is a director of its own with that change. \"Back\" is the death to the client's first answer again; "
            "\"saved\" is your cell's back less the cure's. The cures ran in the order the model ranked them "
            "before the run (make explain FROM=, make plan FROM=).</p>",
            f'<p>The run\'s own page, with every signal: <a href="{html.escape(run_page)}">{html.escape(run_page)}</a></p>',
            "<h2>What was imported, and what was not</h2>",
            f"<pre>{html.escape(chr(10).join(replay.get('imports', []) + replay.get('chosen', [])))}</pre>"]
    path.write_text(f"<!doctype html><html><head><meta charset=utf-8><title>replay</title><style>{STYLE}</style>"
                    f"{IMAGE_CHECK}{LAYOUT_CHECK}</head><body>" + "\n".join(body) + "\n</body></html>\n")
    return path
