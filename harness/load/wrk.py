"""wrk: a keepalive HTTP load through the VIP, its throughput per second
(images/client/wrk_per_second.lua; measure/wrk_log.py reads it)."""
from .specs import Wrk

PROCESS = "wrk --latency"
SCRIPT = "/usr/local/share/blackhole/wrk_per_second.lua"
# wrk is no cell: the run watches on this long after the last cell is back, so that wrk's own
# reconnects (its connections hang as the cells' do) show in a few of its per-second reports.
REPORTS_AFTER_S = 3.0


def command(spec: Wrk, vip: str, duration_s: float) -> list[str]:
    return ["wrk", "--latency", f"--threads={spec.threads}", f"--connections={spec.connections}",
            f"--duration={duration_s:.0f}s", "--timeout=2s", f"--script={SCRIPT}",
            f"http://{vip}:80/"]  # a port number: slim images have no /etc/services
