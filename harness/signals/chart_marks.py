"""What every chart of a run marks the same way: the fault, until the last cell's recovery."""
FAULT_COLOUR = "#f4cccc"


def fault_window(ax, summary):
    ends = [c["probe"]["recover_s"] or c["probe"]["detect_s"] for c in summary["cells"]]
    end = max([e for e in ends if e is not None], default=0)
    ax.axvspan(0, max(end, 0.5), color=FAULT_COLOUR, zorder=0, label="fault until last recovery")
    ax.axvline(0, color="#cc0000", linewidth=1)
