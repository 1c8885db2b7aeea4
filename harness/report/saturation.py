"""A cell whose error came after its model window while the machine the clients ran on had no
idle CPU (signals/machine_cpu.py): its verdict says so, and one note says what that means."""
from ..measure import machine_cpu


def late_share(cell):
    """The machine's busy share while the cell was late, when its error came after the window on a
    saturated machine; else None."""
    probe, predicted, machine = cell.get("probe") or {}, cell.get("predicted") or {}, cell.get("machine") or {}
    if probe.get("within_window") is not False or probe.get("detect_s") is None or predicted.get("latest_s") is None:
        return None
    if probe["detect_s"] <= predicted["latest_s"] or not machine.get("saturated"):
        return None
    return machine.get("busy_while_late", machine["busy_while_waiting"])


def verdict_suffix(cell):
    share = late_share(cell)
    return "" if share is None else f" (CPU {share:.0%})"


def late_cells(cells):
    """[(cell name, busy share), ...] of the cells late on a saturated machine."""
    return [(c["cell"], late_share(c)) for c in cells if late_share(c) is not None]


def note(late):
    """One paragraph naming the cells late on a saturated machine (late: late_cells()); '' for none."""
    if not late:
        return ""
    named = ", ".join(f"{name} {share:.0%}" for name, share in late)
    return (f"CPU busy while they were late ({named}): the machine the clients ran on had no idle CPU (over "
            f"{machine_cpu.SATURATED:.0%} busy) from the latest their windows allow to their errors. A client's "
            "timer, or its wakeup once its kernel gave up, waits for a free CPU, so on a saturated machine the lateness is the machine's, not evidence against the model: fewer cells per "
            "run, or more CPUs, measure them.")
