"""What a zoo client's log (the probe's JSON lines, with libsockopts' lines among them) says
beyond detect/recover: which driver, what the application was told, how long reconnecting took,
whether a pool handed out a connection that had already failed, which socket options took."""
from . import probe_log
from .sysbench_log import socket_options


def driver(text):
    """'mysql-connector-j 8.4.0', from the first connection record that names it."""
    return next((r["driver"] for r in probe_log.records(text) if "connected" in r and r.get("driver")), None)


def dead_connections_handed_out(ops, t_fault):
    """Failed operations after the fault on a connection that had already failed once: a pool
    (or an application) giving the application a connection known to be broken."""
    failed_before, count = set(), 0
    for op in sorted((o for o in ops if o["t1"] > t_fault), key=lambda o: o["t0"]):
        if op.get("ok") or not op.get("conn"):
            continue
        if op["conn"] in failed_before:
            count += 1
        failed_before.add(op["conn"])
    return count


def client_entry(text, ops, t_fault, outcome):
    first_failure = next((o for o in sorted(ops, key=lambda o: o["t1"]) if o["t1"] > t_fault and not o.get("ok")),
                         None)
    saw = None
    if first_failure:
        saw = first_failure.get("error")
        if first_failure.get("detail") and first_failure["detail"] != saw:
            saw = f"{saw}: {first_failure['detail']}"
    reconnect_s = (round(outcome.recover_s - outcome.detect_s, 3)
                   if outcome.recover_s is not None and outcome.detect_s is not None else None)
    return {"driver": driver(text), "saw": saw, "reconnect_s": reconnect_s,
            "dead_connections_handed_out": dead_connections_handed_out(ops, t_fault),
            "socket_options_applied": socket_options(text)}
