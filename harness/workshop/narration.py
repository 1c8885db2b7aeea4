"""What a narrated run says while it goes (make exercise): what a fault just did to the flows,
and, per client, where its kernel stands: retransmission n of m, the next one in x s, the
budget left, a countdown to the error the model predicts. Pure: the live view feeds it the
cells' ss samples, probe outcomes and model windows; each line fits an 80-column terminal."""
import re

from ..measure import effects, kernel_model
from ..measure.predict import Window
from ..measure.recovery import Outcome
from ..measure.ss_log import SocketSample
from ..scenario.model import Cell

FAULT_SAID = {
    effects.BLACKHOLE: "the director dropped the old flows; your clients don't know yet: what they "
                       "send now vanishes, and their kernels start retransmitting",
    effects.PARTITION: "the path is cut both ways; every packet in flight is lost until it heals",
    effects.RESET: "the director will answer each old flow's next packet with a reset",
    effects.APP_HANG: "the server's kernel still ACKs, but the database answers nothing",
    effects.LB_FORGETS_FLOW: "the director forgets flows that stay idle too long",
    effects.NONE: "a change existing connections should not notice",
}
WIDTH = 79
# ss's timer field: kind, time to expiry, count. The time is iproute2's print_ms_timer():
# [<m>min][<s>sec | <s>.]<mmm>ms, e.g. 1min17sec, 24sec, 1.044ms (1.044 s), 096ms; empty when due.
TIMER_RE = re.compile(r"^(on|keepalive|persist),(?:(\d+)min)?(?:(\d+)(?:sec|\.))?(?:(\d+)ms)?,(\d+)$")


def fault_said(effect: effects.Effect) -> str:
    return FAULT_SAID[effect.kind]


def kernel_plan(cell: Cell) -> kernel_model.Prediction:
    """The kernel model's retransmission plan for a cell's knobs (tcp_retries2 or TCP_USER_TIMEOUT)."""
    return kernel_model.for_knobs(cell.knob("tcp_retries2"), cell.tcp_user_timeout_ms)


def retransmissions_planned(plan: kernel_model.Prediction) -> int:
    """How many RTO retransmissions the plan sends before the error (ss's timer counts these;
    the tail loss probe before them it does not)."""
    return sum(1 for firing in plan.schedule if firing.what.startswith("RTO"))


def timer(sample: SocketSample) -> tuple[str, float, int] | None:
    """(kind, seconds to expiry, count) of an ss sample's timer, or None."""
    m = TIMER_RE.match(sample.timer or "")
    if not m:
        return None
    minutes, seconds, millis = (int(g) if g else 0 for g in m.group(2, 3, 4))
    return m.group(1), minutes * 60 + seconds + millis / 1000, int(m.group(5))


def clock_start_s(plan: kernel_model.Prediction) -> float:
    """When (after the first unanswered send) the budget's clock starts: the first RTO firing."""
    return next(f.at_s for f in plan.schedule if f.what.startswith("RTO #1"))


def cell_line(name: str, width: int, now: float, t_fault: float, outcome: Outcome | None, window: Window | None,
              plan: kernel_model.Prediction, sample: SocketSample | None, read_timeout_s: float = 0.0,
              first_rto_t: float | None = None) -> str:
    """One line on a client after the fault. outcome: recovery.Outcome so far; window: the model's
    (predict.Window, from the fault); plan: kernel_plan(cell); sample: the last ss sample of the
    client's first connection (None if there is none); first_rto_t: when its samples first showed
    a retransmission (the budget's clock had started), which anchors the countdown to the socket
    rather than to the fault (an idle client starts retransmitting only when it sends again)."""
    since = now - t_fault
    if outcome is not None and outcome.detect_s is not None:
        text = f"told after {outcome.detect_s:.1f} s ({outcome.error})"
        if outcome.recover_s is not None:
            text += f", back after {outcome.recover_s:.1f} s"
        return _fit(name, width, text)
    parts, error_in = [], window.expected_s - since if window is not None and window.expected_s is not None else None
    state = timer(sample) if sample is not None else None
    sampled_at = sample.t if sample is not None else now        # a state comes from a sample only
    if state and state[0] == "on":
        _, next_in, count = state
        parts.append(f"RTO {count}/{retransmissions_planned(plan)} next {max(0.0, next_in - (now - sampled_at)):.1f}s")
        clock = now - first_rto_t if first_rto_t is not None else since - clock_start_s(plan)
        parts.append(f"budget {max(0.0, min(plan.budget_s, plan.budget_s - clock)):.0f}s left")
        if first_rto_t is not None:
            error_in = plan.detect_s - clock_start_s(plan) - clock
    elif state and state[0] == "keepalive":
        parts.append(f"idle, keepalive probe in {max(0.0, state[1] - (now - sampled_at)):.1f}s")
        error_in = None
    else:
        parts.append("no unanswered data")
        error_in = None if first_rto_t is None and sample is not None else error_in
    if read_timeout_s and (error_in is None or read_timeout_s - since <= error_in + 0.5):
        parts.append(f"app gives up in {max(0.0, read_timeout_s - since):.1f}s")
    elif error_in is not None:
        parts.append(f"error in ~{_duration(error_in)}")
    return _fit(name, width, ", ".join(parts))


def _duration(seconds: float) -> str:
    seconds = max(0.0, seconds)
    return f"{seconds:.0f}s" if seconds < 120 else f"{seconds / 60:.0f} min"


def _fit(name: str, width: int, text: str) -> str:
    line = f"  {name[:width]:<{width}} {text}"
    return line if len(line) <= WIDTH else line[: WIDTH - 1] + "…"
