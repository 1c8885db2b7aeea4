"""A connection still waiting when the run ended (its model says the kernel gives up later): each
retransmission ss saw on it, against the model's ladder. ss's retransmission timer shows how many
retransmissions the connection has made; the timer it shows after the n-th is due when the
(n+1)-th goes out, and the samples of that timer bracket when (ss_log.retransmit_due_bracket).
Each bracket, s after the fault, must meet that retransmission's window: every timer on time to
every one as late as the wheel lets it, the request sent up to `lead_s` after the fault. Pure."""
from collections.abc import Iterable

from ...measure import kernel_model, ss_log
from .record import LadderPart, Rung


def rungs_of(samples: Iterable[ss_log.SocketSample]) -> dict[int, list[ss_log.SocketSample]]:
    """{retransmissions made: [samples showing the timer after them]} of a connection's samples."""
    found: dict[int, list] = {}
    for sample in samples:
        if sample.timer.startswith("on,"):
            count = sample.timer.rsplit(",", 1)[-1]
            if count.isdigit() and int(count) >= 1:
                found.setdefault(int(count), []).append(sample)
    return found


def part(samples: Iterable[ss_log.SocketSample], t_fault: float, lead_s: float, rto0_s: float | None, hz: int,
         rto_max_s: float = kernel_model.RTO_MAX_S) -> LadderPart | None:
    """The `ladder` entry of a still-waiting cell; None when ss saw no retransmission timer past the first."""
    rungs = rungs_of(samples)
    if not rungs:
        return None
    windows = {n: (early, late) for n, early, late in kernel_model.rto_firing_windows(max(rungs) + 1, rto0_s, hz,
                                                                                          rto_max_s)}
    checked: list[Rung] = []
    for count in sorted(rungs):
        earliest, latest = ss_log.retransmit_due_bracket(rungs[count])
        due = [t for t in (earliest, latest) if t is not None]
        if not due:
            continue
        low, high = min(due) - t_fault, max(due) - t_fault
        early, late = windows[count + 1]
        checked.append(Rung(retransmission=count + 1, due_s=[round(low, 3), round(high, 3)],
                            model_s=[round(early, 3), round(late + lead_s, 3)],
                            in_model=low <= late + lead_s + 0.0005 and high >= early - 0.0005))
    if not checked:
        return None
    return LadderPart(rungs=checked, in_model=all(r["in_model"] for r in checked), seen=max(rungs))
