"""When the client's own kernel gave up on a blackholed connection, by its own account: the last
retransmission timer ss saw on the connection the fault caught, the connection gone from ss's
next read after that timer was due, a read that came before the next timer would have (pure; tests/kernel_witness.py holds the lab's runs to
the same kernel timers by its own reading). Beside the client's report, it splits a late error in
two: the kernel in its window, the client's wakeup and report after it."""
from collections.abc import Callable, Iterable, Sequence

from ...measure import kernel_model, ss_log
from .record import KernelPart


def ended_bracket(samples: Sequence[ss_log.SocketSample], sample_times: Iterable[float], hz: int = kernel_model.HZ,
                  user_timeout_ms: int = 0) -> tuple[float, float] | None:
    """(earliest, latest) lab-clock times the last retransmission timer on the connection fired,
    if the connection's samples end with that timer and ss read the namespace again after it was
    due and before the next timer (the RTO doubled) would have been: the connection was gone by
    then, so that timer ended it. None otherwise (ss stood still past the next timer, or never saw
    one). sample_times: when ss read the connection's namespace, any socket. ss shows the time
    left to the expiry the timer was armed for; the timer wheel fires it up to one slot of its
    level later (docs/facts/kernel.md), so the firing's bracket reaches that much past the due.
    With TCP_USER_TIMEOUT the kernel arms its last timer for what is left of U, shorter than the
    doubled RTO and maybe too short for ss to see: the last timer ss saw need not be the one that
    ended it, so no end is claimed (a replay's 3000 ms socket: the timer ss saw due at 2.05 s, the
    error at 4.25 s, U's end)."""
    if user_timeout_ms:
        return None
    if not samples or not samples[-1].timer.startswith("on,") or samples[-1].rto_ms is None:
        return None
    rto_s = samples[-1].rto_ms / 1000
    earliest, latest = ss_log.retransmit_due_bracket(samples)
    due = earliest if earliest is not None else latest
    if due is None:
        return None
    latest = latest if latest is not None else due
    next_timer = latest + 2 * rto_s
    if not any(latest <= t < next_timer for t in sample_times):
        return None
    return due, latest + kernel_model.timer_slack_s(rto_s, hz)


def part(bracket: tuple[float, float] | None, t_fault: float, detect_s: float | None,
         in_window: Callable[[float, float], bool]) -> KernelPart | None:
    """The cell's `kernel` entry: when the kernel gave up (s after the fault, a bracket), whether
    that lies in the model's window, and how long after it the client reported; None when the
    client reported before the kernel can have given up (its own timeout ended the wait)."""
    if bracket is None or detect_s is None:
        return None
    earliest, latest = (t - t_fault for t in bracket)
    if detect_s < earliest:
        return None
    return {"gave_up_s": [round(earliest, 3), round(latest, 3)], "in_window": in_window(earliest, latest),
            "reported_after_s": round(max(0.0, detect_s - latest), 3)}
