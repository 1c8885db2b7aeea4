"""The probe's output (images/client/probe.py): one JSON record per line."""
import json


def records(text):
    """Every JSON record of probe output; a torn last line (the run stopped mid-write) is skipped."""
    for line in text.splitlines():
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            continue


def parse(text):
    """The operations (records with t0/t1) of probe output."""
    return [r for r in records(text) if "t1" in r]


def idle_period(text):
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


def local_ports(text):
    """The local ports of the probe's connections (from its 'connected' records)."""
    return [r["local_port"] for r in records(text) if "connected" in r and "local_port" in r]
