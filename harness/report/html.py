"""Static HTML: one page per run (charts + summary table) and results/index.html listing runs.
Only relative links, so the pages open straight from disk."""
import html
import json
import os
from pathlib import Path

from .summary import HEADER, table_rows

STYLE = """body{font-family:sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#eee}img{max-width:100%;border:1px solid #ddd;margin:1em 0}.no{color:#b00;font-weight:bold}
code{background:#f4f4f4;padding:1px 4px}"""
# Sets data-images="<loaded>/<total>" on <body> once the page has loaded, so a headless browser
# (tests/report/test_html.py) can tell whether every chart decoded.
IMAGE_CHECK = """<script>window.addEventListener('load',function(){var i=document.images,n=0;
for(var k=0;k<i.length;k++){if(i[k].complete&&i[k].naturalWidth>0)n++;}
document.body.setAttribute('data-images',n+'/'+i.length);});</script>"""


def _page(title, body):
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style>{IMAGE_CHECK}</head><body>{body}</body></html>\n")


def _table(header, rows):
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def run_page(run_dir, summary, charts):
    run_dir = Path(run_dir)
    env_path = run_dir / "env.json"
    env = json.loads(env_path.read_text()) if env_path.exists() else {}
    fault = summary.get("fault") or {}
    rows = [[html.escape(v) if v != "NO" else "<span class='no'>NO</span>" for v in row]
            for row in table_rows(summary)]
    parts = [
        "<p><a href='../../index.html'>all runs</a></p>",
        f"<h1>{html.escape(summary['scenario'])}</h1>",
        f"<p>run <code>{html.escape(summary['run'])}</code> · kernel <code>{html.escape(str(summary.get('kernel')))}"
        f"</code> · datapath <code>{html.escape(str(summary.get('datapath')))}</code> · fault "
        f"<code>{html.escape(str(fault.get('name')))}</code> {html.escape(json.dumps(fault.get('params', {})))}</p>",
        _table(HEADER, rows),
        "<p>Times are seconds after the fault took effect. detect: the first error the application saw; "
        "recover: its first success after that. The model window comes from the kernel model "
        "(<code>blackhole explain</code>).</p>",
    ]
    parts += [f"<img src='{html.escape(chart)}' alt='{html.escape(Path(chart).stem)}'>" for chart in charts]
    versions = env.get("versions", {})
    if versions:
        parts.append("<h2>Environment</h2>" + _table(["tool", "version"], [[html.escape(k), html.escape(str(v))]
                                                                         for k, v in versions.items()]))
    parts.append("<p>Files: <a href='summary.json'>summary.json</a> · <a href='summary.md'>summary.md</a> · "
                 "<a href='events.jsonl'>events.jsonl</a> · <a href='env.json'>env.json</a></p>")
    (run_dir / "index.html").write_text(_page(f"{summary['scenario']} {summary['run']}", "\n".join(parts)))
    return run_dir / "index.html"


def simple_page(run_dir, summary, header, rows, charts):
    """A run page for experiments with their own table (burst runs)."""
    parts = ["<p><a href='../../index.html'>all runs</a></p>", f"<h1>{html.escape(summary['scenario'])}</h1>",
             f"<p>run <code>{html.escape(summary['run'])}</code></p>",
             _table(header, [[html.escape(v) for v in row] for row in rows])]
    parts += [f"<img src='{html.escape(chart)}' alt='{html.escape(Path(chart).stem)}'>" for chart in charts]
    parts.append("<p>Files: <a href='summary.json'>summary.json</a> · <a href='env.json'>env.json</a></p>")
    (Path(run_dir) / "index.html").write_text(_page(f"{summary['scenario']} {summary['run']}", "\n".join(parts)))


def _worst(summary):
    values = [c["probe"]["recover_s"] for c in summary.get("cells", [])
              if "probe" in c and c["probe"]["recover_s"] is not None]
    return f"{max(values):.2f} s" if values else "—"


def index_page(results):
    """results/index.html: every run with a summary, newest first."""
    results = Path(results)
    rows = []
    for summary_path in sorted(results.glob("*/*/summary.json"), key=lambda p: p.parent.name, reverse=True):
        if summary_path.parent.is_symlink():
            continue
        summary = json.loads(summary_path.read_text())
        link = os.path.relpath(summary_path.parent / "index.html", results)
        rows.append([html.escape(summary["scenario"]), f"<a href='{html.escape(link)}'>{html.escape(summary['run'])}</a>",
                     html.escape(str(summary.get("kernel"))), html.escape(str(summary.get("datapath"))),
                     str(len(summary.get("cells", []))), _worst(summary),
                     str(sum(1 for c in summary.get("cells", []) if "probe" in c and not c["probe"]["within_window"]))])
    body = ("<h1>blackhole-lab runs</h1>" + _table(
        ["scenario", "run", "kernel", "datapath", "cells", "worst recovery", "cells outside the model"], rows))
    (results / "index.html").write_text(_page("blackhole-lab runs", body))
    return results / "index.html"


def render_run(run_dir, summary):
    """Charts, the run's page and the results index: everything from the run's files."""
    from . import charts
    drawn = charts.render(run_dir, summary)
    page = run_page(run_dir, summary, drawn)
    index_page(Path(run_dir).resolve().parents[1])
    return page
