"""The AWS Advanced JDBC Wrapper's host monitor where the clients connect to a name that moves
(DNS_MOVED_AFTER_S): each of its checks connects to what the name answers through the JVM's cache.
A check before the move meets the silent host; one after the move gets the new address once the
JVM's entry of the old one has run out (at most its TTL after the move: an entry fetched just
before it) and reaches the live server, which resets the count (measure/host_monitor.py). So the
monitor surely aborts the connection when its latest verdict comes before the move, surely never
when its earliest check comes after the last old entry ran out, and otherwise may or may not: the
window then holds both (measure/predict.py). Measured in dns-failover (docs/facts/dns.md): with
checks 1 s apart it aborted 3.1-3.5 s in, before the move; at its defaults its first check came
after the move and it aborted nothing. Pure."""
import dataclasses

from ..measure import predict
from ..measure.effects import BLACKHOLE, Effect
from . import back_by_name
from .limits import MONITOR, Limit, kernel_limit
from .question import Question

TOLD = "the wrapper aborts the connection (its host monitor called the host dead)"


def error_under_name(question: Question, error: predict.Window, moved_s: float) -> tuple[predict.Window, Limit | None]:
    """(the error's window, the monitor's Limit or None) with the monitor's verdict decided where
    the name's move decides it."""
    cell = question.cell
    monitor = cell.host_monitor
    if monitor is None or error.expected_s is None:
        return error, None
    earliest, latest, basis = monitor.abort_for_cell(cell, question.hz)
    name = (f"the wrapper's host monitor (failureDetectionTime {monitor.time_s:g} s, interval {monitor.interval_s:g} s, "
            f"count {monitor.count})")
    ttl, _ = back_by_name.cache_ttl_s(cell)
    if latest + predict.APP_TIMER_LATE_S < moved_s:
        window = predict.Window((earliest + latest) / 2, earliest, latest + predict.APP_TIMER_LATE_S,
                                f"{basis}: each does, its verdict due before the name moves ({moved_s:g} s)")
        return window, Limit(name, MONITOR, window, TOLD)
    needed = monitor.interval_s * (monitor.count - 1)     # the last of the checks a verdict needs begins this late at least
    if ttl is not None and needed >= moved_s + ttl:
        off = dataclasses.replace(cell, client_settings=(*cell.client_settings, ("failureDetectionEnabled", False)))
        unmonitored = predict.predict(off, Effect(BLACKHOLE), 0.0, 0.0, rto0_s=question.rto0_s, hz=question.hz)
        return dataclasses.replace(unmonitored, basis=f"{unmonitored.basis} (the wrapper's host monitor: the last of the "
                                                 f"{monitor.count} checks a verdict needs begins {needed:g} s in at "
                                                 "the earliest, after the name moved and the JVM's entry of the old "
                                                 "address ran out: it reaches the live server)"), None
    window = predict.Window((earliest + latest) / 2, earliest, latest + predict.APP_TIMER_LATE_S, basis)
    kernel = kernel_limit(question)
    said = dataclasses.replace(error, expected_s=kernel.window.expected_s, basis=f"{error.basis}; the name moves at {moved_s:g} s, within the monitor's "
                                            "checks: which of the two ends the wait depends on when its first check comes")
    return said, Limit(name, MONITOR, window, TOLD, otherwise=kernel)
