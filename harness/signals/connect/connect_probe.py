"""The connection-setup latency prober (images/client/connect_probe.py) through the VIP:
connects per second from the first cell's network namespace, each reset once established;
signals/connect/connect_log.py reads its lines back."""
from ...load.specs import ConnectProbe

PROCESS = "connect-probe"
STOPS_ON_EOF = False          # stopped by a signal (signals/base.py first_cell_load)


def command(spec: ConnectProbe, vip: str, port: int, duration_s: float, netns: str | None = None) -> list[str]:
    """spec: the scenario's load.connect (ConnectProbe); netns: the file of the namespace to
    connect from (None: the container's own)."""
    argv = [PROCESS, vip, str(port), str(spec.rate_per_s), f"{duration_s:.0f}", f"{spec.timeout_s:g}"]
    return (["nsenter", f"--net={netns}"] + argv) if netns else argv
