"""The data-accounting writer (images/client/writer.py) through the VIP, from the first cell's
network namespace: sequence-numbered inserts; signals/data/ledger.py reads its lines back."""
from ...load.specs import Writer

PROCESS = "writer"
# It stops on its stdin's end as on SIGINT (WRITER_STOP_ON_EOF=1): a run stops it without an exec.
STOPS_ON_EOF = True


def command(spec: Writer, vip: str, port: int, duration_s: float, netns: str | None = None) -> list[str]:
    """spec: the scenario's load.writer (Writer); netns: the namespace file to write from (None:
    the container's own)."""
    argv = ["env", "WRITER_STOP_ON_EOF=1", PROCESS, vip, str(port), f"{spec.rate_per_s:g}", f"{duration_s:.0f}", str(spec.attempts),
            f"{spec.read_timeout_s:g}", spec.proto]
    return (["nsenter", f"--net={netns}"] + argv) if netns else argv
