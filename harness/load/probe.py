"""The probe: one long-lived connection per cell, an operation every interval, JSON per op."""
import json

PROCESS = "/usr/local/bin/probe"        # what pkill -f matches to stop it


SOCKOPTS_LIBRARY = "/usr/local/lib/blackhole/libsockopts.so"


def command(scenario, cell, vip, duration_s):
    """The cell's probe, with its socket options applied by libsockopts.
    An idle cell goes quiet IDLE_LEAD_S before the fault is due and stays quiet for idle_s."""
    idle = []
    if cell.idle_s:
        idle = ["--idle-after-s", f"{max(0.0, scenario.warmup_s - IDLE_LEAD_S):g}", "--idle-s", f"{cell.idle_s:g}"]
    return ["env", f"LD_PRELOAD={SOCKOPTS_LIBRARY}", *(f"{k}={v}" for k, v in cell.socket_env().items()),
            "probe", "--proto", scenario.probe.proto, "--host", vip,
            "--interval-ms", f"{scenario.probe.interval_ms:g}", "--duration-s", f"{duration_s:.0f}",
            "--read-timeout-s", f"{cell.read_timeout_s:g}", *idle]


IDLE_LEAD_S = 2.0


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
