"""What every chart of a run marks the same way: the fault, until the last cell's recovery; and how
each is laid out and saved (its width, a legend under the axes, its smallest text)."""
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from matplotlib.text import Text

from ..measure.summary_record import FailoverCell

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FAULT_COLOUR = "#f4cccc"


def last_recovery_s(cells: Sequence[FailoverCell]) -> float:
    """Where the fault's shading ends: the last cell's recovery (its first error, where it did not
    recover); 0 for none."""
    return max((end for c in cells if (end := c.probe.recover_s or c.probe.detect_s) is not None), default=0)


def fault_window(ax: "Axes", last_recovery_s: float) -> None:
    """The fault shaded from 0 until last_recovery_s (at least half a second, to be seen)."""
    ax.axvspan(0, max(last_recovery_s, 0.5), color=FAULT_COLOUR, zorder=0, label="fault until last recovery")
    ax.axvline(0, color="#cc0000", linewidth=1)


WIDTH_IN = 9            # at 90 dpi 810 px: shown near its own size in a page 800 px wide, its 9 pt text legible


def legend_under(fig: "Figure", *axes: "Axes", columns: int = 3) -> None:
    """One legend for the figure, under its axes (never on the data), each entry once."""
    seen: dict[str, "Artist"] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(label, handle)
    if seen:
        fig.legend(seen.values(), seen.keys(), loc="upper left", bbox_to_anchor=(0.02, 0.0), fontsize=9,
                   ncol=columns if max(map(len, seen)) < 40 else 1, frameon=False)


DPI = 90
SMALLEST_TEXT_KEY = "Smallest text (pt)"       # a PNG text chunk: what a page's reader needs to judge legibility


def save(fig: "Figure", path: str | os.PathLike[str]) -> None:
    """The PNG as drawn, the legend under the axes included, with the size of its smallest text."""
    texts = [t for t in fig.findobj(Text) if isinstance(t, Text)]
    sizes = [t.get_fontsize() for t in texts if t.get_visible() and t.get_text().strip()]
    fig.savefig(path, dpi=DPI, bbox_inches="tight", metadata={SMALLEST_TEXT_KEY: f"{min(sizes, default=0):g}"})
