"""The data-accounting writer (images/client/writer.py) through the VIP, from the first cell's
network namespace: sequence-numbered inserts; signals/data/ledger.py reads its lines back."""
PROCESS = "writer"


def command(spec, vip, port, duration_s, netns=None):
    """spec: the scenario's load.writer (Writer); netns: the namespace file to write from (None:
    the container's own)."""
    argv = [PROCESS, vip, str(port), f"{spec.rate_per_s:g}", f"{duration_s:.0f}", str(spec.attempts),
            f"{spec.read_timeout_s:g}", spec.proto]
    return (["nsenter", f"--net={netns}"] + argv) if netns else argv
