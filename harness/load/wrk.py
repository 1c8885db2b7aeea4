"""wrk: a keepalive HTTP load through the VIP, its throughput per second (images/client/wrk_per_second.lua)."""
import re

PROCESS = "wrk --latency"
SCRIPT = "/usr/local/share/blackhole/wrk_per_second.lua"
LINE_RE = re.compile(r"wrk-second (\d+) (\d+)")


def command(spec, vip, duration_s):
    return ["wrk", "--latency", f"--threads={spec.threads}", f"--connections={spec.connections}",
            f"--duration={duration_s:.0f}s", "--timeout=2s", f"--script={SCRIPT}",
            f"http://{vip}:80/"]  # a port number: slim images have no /etc/services


def per_second(text):
    """{unix second: responses}; seconds missing from the output had none."""
    counts = {}
    for m in LINE_RE.finditer(text):
        counts[int(m.group(1))] = counts.get(int(m.group(1)), 0) + int(m.group(2))
    return counts
