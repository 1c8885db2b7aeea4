"""The probe: one long-lived connection per cell, an operation every interval, JSON per op
(images/client/probe.py; measure/probe_log.py reads its output)."""
PROCESS = "/usr/local/bin/probe"        # what pkill -f matches to stop it
SOCKOPTS_LIBRARY = "/usr/local/lib/blackhole/libsockopts.so"
IDLE_LEAD_S = 2.0                       # an idle cell goes quiet this long before the fault is due
IDLE_COMMAND = "idle\n"                  # written to an idle cell's probe, on its stdin, at that moment


def command(scenario, cell, vip, duration_s):
    """The cell's probe, with its socket options applied by libsockopts. An idle cell goes quiet
    when told (IDLE_COMMAND) and stays quiet for idle_s."""
    idle = ["--idle-s", f"{cell.idle_s:g}"] if cell.idle_s else []
    return ["env", f"LD_PRELOAD={SOCKOPTS_LIBRARY}", *(f"{k}={v}" for k, v in cell.socket_env().items()),
            "probe", "--proto", scenario.probe.proto, "--host", vip,
            "--interval-ms", f"{scenario.probe.interval_ms:g}", "--duration-s", f"{duration_s:.0f}",
            "--read-timeout-s", f"{cell.read_timeout_s:g}", *idle]
