"""Static HTML: one page per run (charts + summary table) and results/index.html listing runs.
Only relative links, so the pages open straight from disk."""
import html
import os
import re
from collections.abc import Sequence
from pathlib import Path

from .. import store
from ..measure.summary_record import RunSummary
from ..signals.blocks import Subheading, Table
from . import client_grid, headline, marks, sections, tables

STYLE = """body{font-family:sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#eee}img{max-width:100%;border:1px solid #ddd;margin:1em 0}.no{color:#b00;font-weight:bold}
code{background:#f4f4f4;padding:1px 4px}.answer{font-size:16px;font-weight:bold;max-width:60em}
.wide{overflow-x:auto;max-width:100%}td.value{white-space:nowrap}img{height:auto}"""
# Sets data-images="<loaded>/<total>" on <body> once the page has loaded, so a headless browser
# (tests/report/test_html.py) can tell whether every chart decoded.
IMAGE_CHECK = """<script>window.addEventListener('load',function(){var i=document.images,n=0;
for(var k=0;k<i.length;k++){if(i[k].complete&&i[k].naturalWidth>0)n++;}
document.body.setAttribute('data-images',n+'/'+i.length);});</script>"""
# Sets data-layout on <body> once loaded (report/browser.py reads it): how far the page is wider
# than the window, the value cells (a number and its unit) whose text runs on more than one line, and
# the scale each chart is shown at (its text shrinks with it).
LAYOUT_CHECK = """<script>window.addEventListener('load',function(){var w=0,s={},c=document.querySelectorAll('td.value');
for(var k=0;k<c.length;k++){var r=document.createRange();r.selectNodeContents(c[k]);var l=r.getClientRects(),t={};
for(var j=0;j<l.length;j++)t[Math.round(l[j].top)]=1;if(Object.keys(t).length>1)w++;}var i=document.images;
for(var k=0;k<i.length;k++){if(i[k].naturalWidth>0)s[i[k].getAttribute('src')]=
Math.round(1000*i[k].getBoundingClientRect().width/i[k].naturalWidth)/1000;}
document.body.setAttribute('data-layout',JSON.stringify({overflow_px:document.documentElement.scrollWidth-window.innerWidth,
wrapped_values:w,chart_scales:s,height_px:document.documentElement.scrollHeight}));});
</script>"""
VALUE = re.compile(r"^[-+]?[\d.]+(?:[–-][\d.]+)?(?: ?(?:s|ms|%|/s))?$")   # '11.20 s', '9.96–10.28 s', '29%'



def page(title: str, body: str) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style>{IMAGE_CHECK}{LAYOUT_CHECK}</head><body>{body}</body></html>\n")


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(_cell(cell) for cell in row) + "</tr>" for row in rows)
    return f"<div class='wide'><table><tr>{head}</tr>{body}</table></div>"


def _cell(text: str) -> str:
    """A figure and its unit kept on one line; any other text wraps."""
    return f"<td class='value'>{text}</td>" if VALUE.match(text) else f"<td>{text}</td>"


def run_page(run: store.RunDir, summary: RunSummary, charts: Sequence[str]) -> Path:
    """The run's index.html: its table, charts and environment."""
    env = run.env()
    header, rows = tables.header_and_rows(summary)
    if summary.kind != "burst":
        header, rows = tables.drop_empty_columns(header, rows)
    rows = [[f"<span class='no'>{html.escape(v)}</span>" if v.startswith("NO") or v in ("interrupted", "failed")
             else html.escape(v) for v in row] for row in rows]
    parts = ["<p><a href='../../index.html'>all runs</a></p>", f"<h1>{html.escape(summary.scenario)}</h1>"]
    if summary.kind == "burst":
        parts.append(f"<p>run <code>{html.escape(summary.run)}</code></p>")
        parts.append(table(header, rows))
    else:
        if summary.status.state != "completed":
            parts.append(f"<p class='no'>{html.escape(tables.status_line(summary))}</p>")
        answer = headline.sentences(summary)
        parts += [
            *([f"<p class='answer'>{html.escape(' '.join(answer))}</p>"] if answer else []),
            f"<p>run <code>{html.escape(summary.run)}</code> · "
            + "".join(f"{name} <code>{html.escape(str(value))}</code> · "
                      for name, value in (("kernel", summary.kernel), ("datapath", summary.datapath)) if value)
            + f"database <code>{html.escape(tables.database_line(summary.database))}</code> · fault "
            f"<code>{html.escape(marks.fault_and_steps(summary))}</code></p>",
            *_run_verdict(summary),
            client_grid.html_table(summary),
            table(header, rows),
            *[f"<p>{html.escape(note)}</p>" for note in _notes(summary) if note],
            *_sections(summary),
            "<p>Times are seconds after the fault took effect. detect: the first error the application saw; "
            "recover: its first success after that. The model window comes from the kernel model "
            "(<code>blackhole explain</code>).</p>",
        ]
        details_header, details = client_grid.client_details(summary)
        if details:
            parts.append("<h2>Clients</h2>" + table(details_header, [[html.escape(v) for v in r] for r in details]))
    for chart in charts:
        parts.append(f"<img src='{html.escape(chart)}' alt='{html.escape(Path(chart).stem)}'>")
        if Path(chart).name == "recovery.png":
            header, rows = tables.window_bases(summary)
            parts.append(table(header, [[html.escape(v) for v in row] for row in rows]))
    versions = env.get("versions", {})
    if versions:
        parts.append("<h2>Environment</h2>" + table(["tool", "version"], [[html.escape(k), html.escape(str(v))]
                                                                         for k, v in versions.items()]))
    files = ["summary.json", "summary.md", "events.jsonl", "env.json"]
    parts.append("<p>Files: " + " · ".join(f"<a href='{name}'>{name}</a>" for name in files
                                            if (run.path / name).exists()) + "</p>")
    run.page.write_text(page(f"{summary.scenario} {summary.run}", "\n".join(parts)))
    return run.page


def _run_verdict(summary: RunSummary) -> list[str]:
    """The run's verdict, its cells' composed (measure/verdict.py); none for a summary written before."""
    verdict = summary.verdict
    if verdict is None:
        return []
    mark = " class='no'" if verdict.value != "valid" else ""
    return [f"<p>verdict: <b{mark}>{html.escape(verdict.value)}</b>: {html.escape(verdict.why)}</p>"]


def _sections(summary: RunSummary) -> list[str]:
    """The sections after the table (report/sections.py), each a heading and its blocks."""
    parts = []
    for title, blocks in sections.shown(summary.written):
        parts.append(f"<h2>{html.escape(title)}</h2>")
        for block in blocks:
            if isinstance(block, Table):
                parts.append(table(block.header, [[html.escape(v) for v in row] for row in block.rows]))
            elif isinstance(block, Subheading):
                parts.append(f"<h3>{html.escape(block.text)}</h3>")
            else:
                parts.append(f"<p>{html.escape(block)}</p>")
    return parts


def _worst(summary: RunSummary) -> str:
    values = [c.probe.recover_s for c in summary.cells if c.probe.recover_s is not None]
    return f"{max(values):.2f} s" if values else "—"


def index_page(results: str | os.PathLike[str]) -> Path:
    """results/index.html: every run with a summary, newest first."""
    results = Path(results)
    rows = []
    for run in store.runs(results):
        if not run.summary_json.exists():
            continue
        summary = run.summary_record()
        link = os.path.relpath(run.page, results)
        state = summary.status.state
        rows.append([html.escape(summary.scenario), f"<a href='{html.escape(link)}'>{html.escape(summary.run)}</a>",
                     state if state == "completed" else f"<span class='no'>{state}</span>",
                     html.escape(summary.kernel or "—"), html.escape(summary.datapath or "—"),
                     str(len(summary.cells) + len(summary.burst_cells)), _worst(summary),
                     str(sum(1 for c in summary.cells if c.probe.within_window is False))])
    body = ("<h1>blackhole-lab runs</h1>" + table(
        ["scenario", "run", "status", "kernel", "datapath", "cells", "worst recovery", "cells outside the model"], rows))
    pages = sorted((p for kind in ("compare", "kernel-matrix") for p in results.glob(f"{kind}/*/index.html")),
                   key=lambda p: p.parent.name, reverse=True)
    if pages:
        body += ("<h2>Runs side by side</h2><p>make compare RUNS=\"...\" adds one; make kernel-matrix too.</p><ul>"
                 + "".join(f"<li><a href='{html.escape(os.path.relpath(p, results))}'>"
                           f"{html.escape(p.parent.parent.name + '/' + p.parent.name)}</a></li>" for p in pages)
                 + "</ul>")
    (results / "index.html").write_text(page("blackhole-lab runs", body))
    return results / "index.html"


def _notes(summary: RunSummary) -> list[str]:
    """The paragraphs under the cells' table: cells late on a saturated machine, lost answers."""
    return [*sections.late_notes(summary.written), *tables.run_notes(summary)]
