"""What the model says a cell's detect_s should be, as a window, for the effect the run's first
fault declared (harness/measure/effects.py): the model never looks at which fault it was.

t_fault is when the fault took effect (or, when that is not known, when its step started).
The window widens the kernel model's own window (harness/measure/kernel_model.py) by what
lies between t_fault and the kernel's t=0, the first unacknowledged send:
  - one probe interval (the next operation goes out up to one interval later),
  - the fault step's uncertainty (its duration, when its landing time is not known).
Nothing else: a measurement outside the window is a finding, not noise to widen for.
"""
import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from . import effects, kernel_model
from .effects import Close, Effect
from .modelled_cell import ModelledCell
from .window import Window

C = TypeVar("C", bound=ModelledCell)
# (start, end[, sent]) of a probe's idle period, relative to t_fault (end None: idle to the end)
Idle = tuple[float, float | None] | tuple[float, float | None, float | None]


LOST_PACKETS = (effects.BLACKHOLE, effects.PARTITION)
# How late an application's own timer may fire on a busy 2-core machine: bench-scale's 263
# read-timeout cells came up to 0.056 s after their expected time, one 5 s timer in a 12-cell
# matrix 0.114 s after the timeout; in a CI make test two 5 s read timeouts of the 36-cell matrix
# ended 5.186 s after the fault, their send due by 0.124 s: their timers 0.062 s late or more.
APP_TIMER_LATE_S = 0.12
# How long a reset the director sends on a retransmission takes to reach the application: a round
# trip on the lab's path (up to 15 ms in a TCG guest, docs/facts/guest.md) and the client's scheduling
# (a keepalived-failover run in a 6.12 guest: the error came 35 ms after the retransmission's latest firing).
RESET_DELIVERY_S = 0.05


def predict(cell: C, effect: Effect, interval_s: float, inject_s: float, healed_after_s: float | None = None,
            idle: Idle | None = None, rto0_s: float | None = None, lb: Mapping[str, Any] | None = None,
            hz: int = kernel_model.HZ) -> Window:
    """effect: what the fault did to existing flows; healed_after_s: when the fault was undone,
    if it was; idle: (start, end) of the probe's idle period, both relative to t_fault, when the
    cell was idle (from its log); rto0_s: the base RTO the kernel used for the cell's socket,
    when measured (ss); lb: the director's datapath and conntrack_loose (env.json); hz: the
    run's kernel's CONFIG_HZ (timer granularity)."""
    if effect.starts_at_s is not None:
        return _started_later(cell, effect, effect.starts_at_s, interval_s, inject_s, healed_after_s, idle, rto0_s, lb,
                              hz)
    bypassed = not cell.socket_options_reach_kernel and (cell.tcp_user_timeout_ms or cell.keepalive)
    if bypassed:              # preloaded options never reach a program that does not connect through libc
        cell = dataclasses.replace(cell, tcp_user_timeout_ms=0, keepalive=())
    if effect.kind == effects.LB_FORGETS_FLOW and effect.idle_timeout_s is not None:    # Effect refuses it unset
        window = _lb_forgets(cell, effect.idle_timeout_s, idle, lb, interval_s, rto0_s, hz)
    else:
        window = _unhealed(cell, effect, interval_s, inject_s, idle, rto0_s, hz)
    if bypassed:
        window = dataclasses.replace(window, basis=f"{window.basis} (its sockets bypass libc: LD_PRELOAD options "
                                                   "do not apply)")
    if healed_after_s is not None and window.earliest_s is not None and window.earliest_s > healed_after_s:
        return Window(None, None, None, f"healed after {healed_after_s:.1f} s, before {window.basis} ran out")
    return window


def _started_later(cell: C, effect: Effect, at: float, interval_s: float, inject_s: float,
                   healed_after_s: float | None, idle: Idle | None, rto0_s: float | None,
                   lb: Mapping[str, Any] | None, hz: int) -> Window:
    """An effect a control plane's change began, starts_at_s-starts_by_s after the fault: the
    client's own window, counted from then (the next send after it within a probe interval)."""
    by = effect.starts_by_s if effect.starts_by_s is not None else at
    own = predict(cell, dataclasses.replace(effect, starts_at_s=None, starts_by_s=None), interval_s, inject_s, None,
                  idle, rto0_s, lb, hz)
    if own.expected_s is None:
        return own
    earliest, expected, latest = own.bounds()
    basis = f"from the control plane's change at {at:.2f}-{by:.2f} s: {own.basis}"
    return Window(expected + (at + by) / 2, earliest + at, latest + by, basis,
                  None if own.send_by_s is None else own.send_by_s + by)


def outstanding_data(cell: ModelledCell, rto0_s: float | None = None, hz: int = kernel_model.HZ) -> Window:
    """A connection with a request outstanding: tcp_retries2 or TCP_USER_TIMEOUT."""
    rto_max_s = cell.knob("tcp_rto_max_ms") / 1000
    kernel = kernel_model.for_knobs(cell.knob("tcp_retries2"), cell.tcp_user_timeout_ms, rto0_s=rto0_s, hz=hz,
                                    rto_max_s=rto_max_s)
    if cell.tcp_user_timeout_ms:
        basis = f"TCP_USER_TIMEOUT {cell.tcp_user_timeout_ms / 1000:g} s"
    else:
        basis = f"tcp_retries2={cell.knob('tcp_retries2')} budget {kernel.budget_s:g} s"
    if rto_max_s != kernel_model.RTO_MAX_S:
        basis += f", RTO capped at {rto_max_s:g} s"
    if rto0_s:
        basis += f", base RTO {rto0_s * 1000:.0f} ms (measured)"
    return Window(kernel.detect_s, kernel.earliest_s, kernel.latest_s, basis)


def _with_read_timeout(cell: ModelledCell, window: Window, interval_s: float, lead: float) -> Window:
    """The application's own timer, started with the first request sent after the fault: on
    average half a probe interval after it. When the kernel's window opens before the timer is
    due (a borderline tcp_retries2, whose earlier RTO firing may already end it), either may end
    the wait first."""
    timeout = cell.read_timeout_s
    if not timeout or (window.expected_s is not None and timeout >= window.expected_s):
        return window
    own = Window(timeout + interval_s / 2, timeout, timeout + lead + APP_TIMER_LATE_S,
                 f"application read timeout {timeout:g} s")
    if window.earliest_s is not None and window.earliest_s < timeout:
        return Window(own.expected_s, window.earliest_s, own.latest_s,
                      f"{own.basis}, or {window.basis} if its earlier firing comes first")
    return own


def _unhealed(cell: ModelledCell, effect: Effect, interval_s: float, inject_s: float, idle: Idle | None,
              rto0_s: float | None, hz: int) -> Window:
    lead = interval_s + inject_s
    if effect.kind == effects.APP_HANG:              # the kernel keeps ACKing: only the app can tell
        return _sent_by(_with_read_timeout(cell, _first_close(effect.closes, interval_s, lead), interval_s, lead), lead)
    if effect.kind == effects.RESET and effect.after_s > 0:
        drain = effect.after_s
        return Window(drain + interval_s / 2, drain, drain + lead + 0.5, "drain timeout, then reset")
    if effect.kind == effects.RESET:
        return Window(interval_s / 2, 0.0, lead + 0.5, "reset at the next packet", send_by_s=lead)
    if effect.kind not in LOST_PACKETS:
        return Window(None, None, None, f"existing flows are not affected ({effect.kind})")
    if effect.resume_at_s is not None:
        resume_by = effect.resume_by_s if effect.resume_by_s is not None else effect.resume_at_s
        if outstanding_data(cell, rto0_s, hz).bounds()[0] > resume_by:
            return Window(None, None, None, f"blackholed until the backup director took the VIP over at "
                                            f"{effect.resume_at_s:.2f}-{resume_by:.2f} s with the flow "
                                            "synced: it goes on at the next retransmission")
    if effect.reset_at_s is not None:
        return _reset_later(cell, effect.reset_at_s, effect.reset_by_s or effect.reset_at_s, interval_s, inject_s,
                            rto0_s, hz)
    if idle and idle[0] <= 0 < (idle[1] if idle[1] is not None else float("inf")):
        return _idle(cell, idle, interval_s, inject_s, rto0_s, hz)
    kernel = outstanding_data(cell, rto0_s, hz)
    earliest, expected, latest = kernel.bounds()
    window = Window(expected + interval_s / 2, earliest, latest + lead, kernel.basis)
    return _sent_by(_with_host_monitor(cell, _with_read_timeout(cell, window, interval_s, lead), interval_s, lead, hz),
                    lead)


def _with_host_monitor(cell: ModelledCell, window: Window, interval_s: float, lead: float, hz: int) -> Window:
    """A driver's host monitor (measure/host_monitor.py) aborts the connection if each of its checks
    meets the silent host, else the wait is the kernel's or the application's timer's: the model
    cannot tell which from the cell alone, so the window holds both, the monitor's first."""
    monitor = cell.host_monitor
    if monitor is None or window.expected_s is None:
        return window
    earliest, latest, basis = monitor.abort_for_cell(cell, hz)
    own_earliest, _, own_latest = window.bounds()
    if earliest >= own_latest:
        return window
    return Window((earliest + latest) / 2 + interval_s / 2, min(earliest, own_earliest),
                  max(own_latest, latest + lead + APP_TIMER_LATE_S), f"{basis}; else {window.basis}")


def _first_close(closes: tuple[Close, ...], interval_s: float, lead: float) -> Window:
    """The first of a proxy's limits to close the connection (effects.Close): the client, blocked
    in its read, sees the close as it arrives. A limit counted from the request sent after the
    fault starts within lead of it."""
    windows = [close_window(c, interval_s, lead) for c in closes]
    if not windows:
        return Window(None, None, None, "app hang: the kernel ACKs, nothing times out")
    first = min(windows, key=lambda w: w.bounds()[2])
    first_latest = first.bounds()[2]
    rivals = [w for w in windows if w is not first and w.bounds()[0] <= first_latest]
    if not rivals:
        return first
    return Window(first.expected_s, min(w.bounds()[0] for w in [first, *rivals]), first_latest,
                  " or ".join(w.basis for w in [first, *rivals]))


def close_window(close: Close, interval_s: float, lead: float) -> Window:
    """When one of a proxy's limits (effects.Close) reaches the client blocked in its read."""
    c = close
    expected = (c.at_s + c.by_s) / 2 if c.expected_s is None else c.expected_s
    return Window(expected + (interval_s / 2 if c.from_send else 0), c.at_s,
                  c.by_s + (lead + APP_TIMER_LATE_S if c.from_send else 0) + RESET_DELIVERY_S, c.basis)


def _sent_by(window: Window, lead: float) -> Window:
    """A window counted from the next send after the fault, which goes out within lead."""
    return window if window.expected_s is None else dataclasses.replace(window, send_by_s=lead)


def _reset_later(cell: ModelledCell, reset_at_s: float, reset_by_s: float, interval_s: float, inject_s: float,
                 rto0_s: float | None, hz: int) -> Window:
    """Blackholed until the load balancer starts resetting the flow, between reset_at_s and
    reset_by_s (its control plane removed the server with expire_nodest_conn=1): the first
    retransmission after that meets the reset, unless the kernel's own limit or the application's
    timer ends the wait first. The first unacknowledged send went out up to one probe interval
    (and the fault's uncertainty) after the fault; each retransmission timer may fire late by its
    wheel's granule; the reset reaches the application up to RESET_DELIVERY_S after it is sent."""
    lead = interval_s + inject_s
    window = reset_window(reset_at_s, reset_by_s, interval_s, inject_s, rto0_s, hz)
    kernel = outstanding_data(cell, rto0_s, hz)
    earliest, expected, latest = kernel.bounds()
    if expected + interval_s / 2 < window.bounds()[1]:
        window = Window(expected + interval_s / 2, earliest, latest + lead, kernel.basis)
    return _with_read_timeout(cell, window, interval_s, lead)


def reset_window(reset_at_s: float, reset_by_s: float, interval_s: float, inject_s: float,
                 rto0_s: float | None = None, hz: int = kernel_model.HZ) -> Window:
    """When the first retransmission after the director began resetting the flow (reset_at_s to
    reset_by_s after the fault) meets the reset, the request sent up to interval_s + inject_s after
    the fault."""
    rto0 = rto0_s or kernel_model.initial_rto_s(hz=hz)
    lead = interval_s + inject_s
    sends = [lead * k / 20 for k in range(21)]
    firings = [start + kernel_model.first_retransmission_after(reset - start, rto0, hz=hz, slack_share=share)
               for start in sends for share in (0.0, 1.0) for reset in (reset_at_s, reset_by_s)]
    middle = (reset_at_s + reset_by_s) / 2
    expected = interval_s / 2 + kernel_model.first_retransmission_after(middle - interval_s / 2, rto0, hz=hz)
    return Window(expected, min(firings), max(firings) + RESET_DELIVERY_S,
                  f"the director resets the flow from {reset_at_s:.2f}-{reset_by_s:.2f} s (its control plane "
                  "removed the server): the next retransmission meets it")


def _idle(cell: ModelledCell, idle: Idle, interval_s: float, inject_s: float, rto0_s: float | None,
          hz: int) -> Window:
    """Idle at the fault: keepalive finds the dead peer, or nothing does until the next send.
    idle: (start, end[, sent]): the keepalive clock starts at the last packet the kernel received,
    which the client stamps only once it has read it (start, its last operation's end; on a busy
    machine up to ~0.1 s later), after it sent that operation (sent): between the two."""
    start, end = idle[:2]
    received_by = start
    start = idle[2] if len(idle) > 2 and idle[2] is not None else start
    if cell.keepalive:
        idle_s, every_s, probes = cell.keepalive
        ka = kernel_model.keepalive(idle_s, every_s, probes, cell.tcp_user_timeout_ms / 1000, hz=hz)
        basis = f"keepalive {idle_s}/{every_s}/{probes}" + (
            f" + TCP_USER_TIMEOUT {cell.tcp_user_timeout_ms / 1000:g} s" if cell.tcp_user_timeout_ms else "")
        if start + idle_s >= inject_s:
            return Window(received_by + ka.detect_s, start + ka.earliest_s, received_by + ka.latest_s + inject_s, basis)
        # Probes were already being answered before the fault: the first unanswered one comes
        # within one idle period after it.
        tail = ka.detect_s - idle_s
        return Window(idle_s / 2 + tail, tail, idle_s + tail + ka.latest_s - ka.detect_s + inject_s, basis)
    if end is None:
        return Window(None, None, None, "idle without keepalive: nothing notices until it sends")
    sending = outstanding_data(cell, rto0_s, hz)
    return sending.shifted(end, f"idle without keepalive until {end:.1f} s, then {sending.basis}")


def _lb_forgets(cell: ModelledCell, timeout_s: float, idle: Idle | None, lb: Mapping[str, Any] | None,
                interval_s: float = 0.1, rto0_s: float | None = None, hz: int = kernel_model.HZ) -> Window:
    """The LB forgets flows idle for timeout_s. What the next packet of a forgotten flow meets
    depends on the datapath: IPVS, and conntrack with loose tracking off, hand it to the
    director's own stack, which answers with a RST; with loose tracking on (the kernel default)
    it is tracked anew and DNATed to the same backend, and the flow survives. A director told to
    drop a forgotten flow's packets (lb forgotten_flows=drop: a cloud load balancer that forgets
    idle flows silently) blackholes the next request: the kernel's or the application's limit,
    from the end of the idle period."""
    if not idle or idle[1] is None:
        return Window(None, None, None, "not idle: its own traffic keeps the LB's entry fresh")
    start, end = idle[0], idle[1]
    if cell.keepalive and cell.keepalive[0] < timeout_s:
        return Window(None, None, None, f"keepalive every {cell.keepalive[0]} s of silence keeps the LB's entry "
                                        f"fresh (idle timeout {timeout_s:g} s)")
    if end < timeout_s:
        return Window(None, None, None, f"idle {end - start:.0f} s, less than the LB's {timeout_s:g} s")
    if not lb or not lb.get("datapath"):
        return Window(None, None, None, f"the LB forgot the flow after {timeout_s:g} s idle, but the run recorded "
                                        "no datapath of it (env.json's lb): a reset, a drop or a flow tracked anew "
                                        "is not known")
    if lb.get("datapath") == "nftables" and lb.get("conntrack_loose") == 1:
        return Window(None, None, None, "the LB forgot the flow, but nf_conntrack_tcp_loose=1 tracks its next "
                                        "packet anew and DNATs it to the same backend: it survives")
    if lb.get("forgotten_flows") == "drop":
        own = _with_read_timeout(cell, outstanding_data(cell, rto0_s, hz), interval_s, interval_s)
        earliest, expected, latest = own.bounds()
        return Window(expected + end + interval_s / 2, earliest + end, latest + end + interval_s,
                      f"the LB forgot the flow after {timeout_s:g} s idle and drops its next packets without a word: "
                      f"{own.basis}, from the first request after the idle period")
    why = ("IPVS has no entry for the flow" if lb.get("datapath") == "ipvs"
           else "nf_conntrack_tcp_loose=0 leaves the mid-stream packet untracked and un-NATed")
    return Window(end + 0.05, end, end + 0.5, f"the LB forgot the flow after {timeout_s:g} s idle; {why}, so the "
                                               "director's own stack answers the next request with a RST")
