"""A cell whose error came after its model window while the machine the clients ran on had no
idle CPU (the signal: __init__.py): its verdict says so, and one note says what that means. The
run's note opens with a wall clock set while the run went on (clock_steps.py), which every verdict
of the run hangs on."""
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import machine_cpu


def late_share(cell: Mapping[str, Any]) -> float | None:
    """The machine's busy share while the cell was late, when its error came after the window on a
    saturated machine (the signal measured it only for an error after the window); else None."""
    machine = cell.get("machine") or {}
    late = (cell.get("probe") or {}).get("within_window") is False and "busy_while_late" in machine
    return machine["busy_while_late"] if late and machine["saturated"] else None


def wakeup_late_s(cell: Mapping[str, Any]) -> float | None:
    """How late the machine's sampler woke while the cell was late (stalls.py), when its error came
    after the window and a wakeup came late meanwhile; else None."""
    machine = cell.get("machine") or {}
    late = (cell.get("probe") or {}).get("within_window") is False
    return machine.get("wakeup_late_s") if late else None


def phrase(share: float) -> str:
    return f"CPU {share:.0%}"


def reason(cell: Mapping[str, Any]) -> str:
    """What the machine did while a late cell was late (tables.py's verdict): its CPU saturated, its
    wakeups late; '' for neither."""
    share, woke = late_share(cell), wakeup_late_s(cell)
    return "; ".join(part for part in (None if share is None else phrase(share),
                                       None if woke is None else f"wakeups {woke:.2f} s late") if part)


def late_cells(cells: Iterable[Mapping[str, Any]]) -> list[tuple[str, float]]:
    """[(cell name, busy share), ...] of the cells late on a saturated machine."""
    return [(c["cell"], share) for c in cells if (share := late_share(c)) is not None]


def summary_note(summary: Mapping[str, Any]) -> str:
    """note() of a run's summary, after what a set wall clock (clock_steps.py) does to all of them."""
    part = summary.get("signals", {}).get("machine") or {}
    cells = summary.get("cells", [])
    return "\n\n".join(n for n in [clock_note(part), note(late_cells(cells)), wakeups_note(cells)] if n)


def wakeups_note(cells: Iterable[Mapping[str, Any]]) -> str:
    """One paragraph naming the late cells during whose lateness the machine woke its processes late;
    '' for none."""
    woke = [(c["cell"], wakeup_late_s(c)) for c in cells if wakeup_late_s(c) is not None]
    if not woke:
        return ""
    named = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in woke)
    return (f"Wakeups came late while they were late ({named}): the machine's sampler, which waits half a "
            "second between reads, woke that much past its wait. A client's timer due then fires as late: "
            "that lateness is the machine's, not evidence against the model.")


def note(late: Sequence[tuple[str, float]]) -> str:
    """One paragraph naming the cells late on a saturated machine (late: late_cells()); '' for none."""
    if not late:
        return ""
    named = ", ".join(f"{name} {share:.0%}" for name, share in late)
    return (f"CPU busy while they were late ({named}): the machine the clients ran on had no idle CPU (over "
            f"{machine_cpu.SATURATED:.0%} busy) from the latest their windows allow to their errors. A client's "
            "timer, or its wakeup once its kernel gave up, waits for a free CPU, so on a saturated machine the "
            "lateness is the machine's, not evidence against the model: fewer cells per run, or more CPUs, "
            "measure them.")


def clock_note(part: Mapping[str, Any]) -> str:
    """A paragraph for a run whose wall clock was set while it ran (clock_steps.py); "" else."""
    steps = part.get("clock_steps") or []
    if not steps:
        return ""
    named = ", ".join(f"{s['step_s']:+.3f} s at {s['at_s']:+.1f} s" for s in steps)
    return (f"The machine's wall clock was set while this run went on ({named} after the fault, against the "
            "kernel's uptime): times that span a step are off by it, and clients that stamp with a clock of "
            "their own (Node's) disagree with the others by it. Run it again before reading its figures.")
