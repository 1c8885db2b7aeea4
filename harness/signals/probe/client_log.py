"""What a zoo client's log (the probe's JSON lines, with libsockopts' lines among them) says
beyond detect/recover: which driver, what the application was told, how long reconnecting took,
whether a pool handed out a connection that had already failed, which socket options took."""
from collections.abc import Sequence

from ...measure import probe_log
from ...measure.probe_log import Record
from ...measure.recovery import Outcome, said
from ...measure.sysbench_log import socket_options
from .record import ClientEntry


def driver(text: str) -> str | None:
    """'mysql-connector-j 8.4.0', from the first connection record that names it."""
    return next((r["driver"] for r in probe_log.records(text) if "connected" in r and r.get("driver")), None)


def dead_connections_handed_out(text: str, ops: Sequence[Record], t_fault: float) -> int:
    """Operations that failed after the application had been told of the failure, on a connection
    the fault had caught (opened before it) or one that had failed already: a pool (or an
    application) handing out a connection it could have known to be dead."""
    opened = {r["conn"]: r["connected"] for r in probe_log.records(text) if "connected" in r}
    failures = sorted((o for o in ops if o["t1"] > t_fault and not o.get("ok") and o.get("conn")),
                      key=lambda o: o["t1"])
    if not failures:
        return 0
    told, failed_before, count = failures[0]["t1"], {failures[0]["conn"]}, 0
    for op in failures[1:]:
        if op["t0"] >= told and (op["conn"] in failed_before or opened.get(op["conn"], t_fault) < t_fault):
            count += 1
        failed_before.add(op["conn"])
    return count


def client_entry(text: str, ops: Sequence[Record], t_fault: float, outcome: Outcome) -> ClientEntry:
    failures = [o for o in sorted(ops, key=lambda o: o["t1"]) if o["t1"] > t_fault and not o.get("ok")]
    saw = said(failures[0]) if failures else None
    if outcome.recover_s is None and failures and said(failures[-1]) != saw:
        saw = f"{said(failures[0])}; then, until the run ended: {said(failures[-1])}"
    reconnect_s = (round(outcome.recover_s - outcome.detect_s, 3)
                   if outcome.recover_s is not None and outcome.detect_s is not None else None)
    return {"driver": driver(text), "saw": saw, "reconnect_s": reconnect_s,
            "dead_connections_handed_out": dead_connections_handed_out(text, ops, t_fault),
            "socket_options_applied": socket_options(text)}
