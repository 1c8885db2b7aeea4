"""A run's page as an operator's browser shows it: headless Chromium (Debian's package) at a
window's width reads the page's own layout check (html.LAYOUT_CHECK) and, when asked, keeps a
screenshot of the whole page."""
import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from ..errors import LabError
from ..signals.chart_marks import DPI, SMALLEST_TEXT_KEY

WIDTHS = (1400, 800)           # a laptop's browser, and half a wide screen
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")
TALLEST_PX = 16_000            # a screenshot's height at most (a matrix page is about 6,000 px)


@dataclass(frozen=True)
class Layout:
    width_px: int
    images: str                    # '<loaded>/<total>'
    overflow_px: int               # how much wider than the window the page is (<= 0: it fits)
    wrapped_values: int            # table cells holding a figure and its unit that wrapped
    chart_scales: tuple            # ((chart's src, its shown width over its own), ...)
    height_px: int

    def smallest_chart_text_px(self, page: Path) -> float | None:
        """The smallest text of any chart as the window shows it, in CSS pixels (from the size each
        chart's PNG records, report/charts.py); None for a page without charts."""
        shown = [_smallest_text_pt(page.parent / src) * DPI / 72 * scale for src, scale in self.chart_scales]
        return min(shown, default=None)


def chromium(*args: str, timeout_s: float = 120) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("chromium")
    if binary is None:
        raise LabError("chromium is missing: `make screenshots` installs it (scripts/ensure-chromium.sh)")
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=timeout_s)


def look(page: Path, width_px: int) -> Layout:
    """The page at a window width_px wide, as its layout check found it once loaded."""
    dom = chromium(f"--window-size={width_px},1000", "--virtual-time-budget=10000", "--dump-dom", page.as_uri()).stdout
    layout = re.search(r'data-layout="([^"]*)"', dom)
    images = re.search(r'data-images="([^"]*)"', dom)
    if layout is None or images is None:
        raise LabError(f"{page}: Chromium ran no layout check (a page from before it, or no page): render it again")
    found = json.loads(layout.group(1).replace("&quot;", '"'))
    return Layout(width_px, images.group(1), int(found["overflow_px"]), int(found["wrapped_values"]),
                  tuple(sorted(found["chart_scales"].items())), int(found["height_px"]))


def _smallest_text_pt(png: Path) -> float:
    with Image.open(png) as image:
        recorded = image.info.get(SMALLEST_TEXT_KEY)
    if recorded is None:
        raise LabError(f"{png}: a chart from before its text size was recorded: render the run again")
    return float(recorded)


def screenshot(page: Path, layout: Layout, path: Path) -> Path:
    """The whole page at layout's width, as a PNG."""
    path.parent.mkdir(parents=True, exist_ok=True)
    chromium(f"--window-size={layout.width_px},{min(layout.height_px, TALLEST_PX)}", f"--screenshot={path}",
             page.as_uri())
    if not path.exists():
        raise LabError(f"Chromium wrote no screenshot of {page}")
    return path
