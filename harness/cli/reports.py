"""scenarios, report, compare: what is known without a lab (no Docker)."""
import argparse
from pathlib import Path

from . import Commands
from .. import compare_runs
from .. import scenario as scenario_module
from ..errors import InvalidInput
from ..report import browser, html
from ..report.render import render
from ..report.tables import terminal_table
from ..store import RunDir, results_root
from .options import add


def add_commands(commands: Commands) -> None:
    add(commands, "scenarios", cmd_scenarios, "list the scenarios, a line each")
    command = add(commands, "report", cmd_report, "re-render a run's summary, charts and page from its files (no "
                  "Docker), and results/index.html; without DIR only the index")
    command.add_argument("target", nargs="?", metavar="DIR", help="a run directory")
    command = add(commands, "screenshots", cmd_screenshots, "a run's page in headless Chromium at 1400 and 800 px: "
                  "its layout checked, screenshots kept in the run's screenshots/")
    command.add_argument("target", metavar="DIR", help="a run directory")
    command = add(commands, "compare", cmd_compare, "runs side by side on one page (no Docker)")
    command.add_argument("runs", nargs="*", metavar="[LABEL=]DIR")


def cmd_scenarios(args: argparse.Namespace) -> None:
    for scenario_id, description in scenario_module.describe_all():
        print(f"  {scenario_id:22} {description}")


def cmd_report(args: argparse.Namespace) -> None:
    if args.target:
        run = RunDir(args.target)
        if not run.scenario_file.exists():
            raise InvalidInput(f"{args.target}: not a run directory (it has no scenario.yaml)")
        summary = render(run, link_latest=False)
        print(terminal_table(summary))
        print(f"written: {run.path}/summary.json, summary.md, charts/, {run.page}")
    print(f"index: {html.index_page(results_root())}")


def cmd_screenshots(args: argparse.Namespace) -> None:
    run = RunDir(args.target)
    if not run.page.exists():
        raise InvalidInput(f"{args.target}: no page to look at (make report RUN={args.target} renders it)")
    replay_page = run.path / "replay.html"                 # a replay's ranking, beside the run's page
    for page, name in ((run.page, "page"), *([(replay_page, "replay")] if replay_page.exists() else [])):
        for width in browser.WIDTHS:
            _look(run, page, name, width)


def _look(run: RunDir, page: Path, name: str, width: int) -> None:
    layout = browser.look(page, width)
    shot = browser.screenshot(page, layout, run.path / "screenshots" / f"{name}-{width}.png")
    text = layout.smallest_chart_text_px(page)
    print(f"{page.name} at {width} px: charts loaded {layout.images}, page "
          + (f"{layout.overflow_px} px wider than the window" if layout.overflow_px > 0 else "fits the window")
          + f", {layout.wrapped_values} figure(s) wrapped away from their unit"
          + ("" if text is None else f", smallest chart text {text:.1f} px") + f": {shot}")


def cmd_compare(args: argparse.Namespace) -> None:
    page = compare_runs.compare(compare_runs.parse_runs(args.runs))
    print(f"compare: {page}")
    print(f"index: {html.index_page(results_root())}")
