"""The probe's output (images/client/probe.py): one JSON record per line."""
import json
from collections.abc import Iterator
from typing import Any

Record = dict[str, Any]       # one JSON line of the probe's: an operation (t0, t1, ok, ...), a connect, idle marks


def records(text: str) -> Iterator[Record]:
    """Every JSON record of probe output; a torn last line (the run stopped mid-write) is skipped."""
    for line in text.splitlines():
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            continue


def parse(text: str) -> list[Record]:
    """The operations (records with t0/t1) of probe output."""
    return [r for r in records(text) if "t1" in r]


def idle_period(text: str) -> tuple[float, float | None] | None:
    """(start, end) of the probe's idle period from its output, or None. The start is the end of
    its last operation before going idle: the connection's last data, where the kernel's
    keepalive timer starts counting."""
    start = end = None
    last_activity = None
    for record in records(text):
        if "t1" in record and start is None:
            last_activity = record["t1"]
        if "idle_start" in record and start is None:
            start = last_activity if last_activity is not None else record["idle_start"]
        elif start is not None and end is None and ("idle_end" in record or record.get("idle")):
            end = record.get("idle_end", record.get("t1"))
    return (start, end) if start is not None else None


def last_send_before_idle(text: str) -> float | None:
    """When the probe's last operation before its idle period was sent (its t0), or None: the last
    packet the kernel received on the connection came between that and the operation's end."""
    last = None
    for record in records(text):
        if "t1" in record:
            last = record.get("t0")
        if "idle_start" in record:
            return last
    return None


def local_ports(text: str) -> list[int]:
    """The local ports of the probe's connections (from its 'connected' records)."""
    return [r["local_port"] for r in records(text) if "connected" in r and "local_port" in r]


def caught_connection(text: str, t_fault: float | None) -> tuple[int, float] | None:
    """(local port, when it connected) of the connection a fault at t_fault caught: the one the
    last operation sent before the fault used (its `conn`), else the first; None when no record
    names a port. A first connect that failed before the fault (a JVM's, slow in an emulated
    guest) left the probe on its second connection, and its first was gone before the fault."""
    every = list(records(text))
    connected = [r for r in every if "connected" in r and "local_port" in r]
    if not connected:
        return None
    in_use = [r["conn"] for r in every if "t0" in r and r.get("conn") and t_fault is not None and r["t0"] <= t_fault]
    record = next((r for r in connected if in_use and r.get("conn") == in_use[-1]), connected[0])
    return record["local_port"], record["connected"]
