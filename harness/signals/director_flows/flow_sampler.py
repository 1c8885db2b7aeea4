"""Evidence: the director's own flow table (what `lbctl flows` prints, asked of the datapath's
tool directly, as starting Python every sample is costly in a TCG guest), every two seconds,
in blocks headed '@ <unix time>' (harness/measure/director_flows.py reads them back)."""
from ...load.sampling import every

PROCESS = "blackhole-flow-sampler"
INTERVAL_S = 2.0
TABLE_COMMAND = {"ipvs": "ipvsadm -Lnc", "nftables": "conntrack -L -p tcp 2>/dev/null"}


def command(duration_s: float, datapath: str) -> list[str]:
    return every(INTERVAL_S, duration_s, TABLE_COMMAND[datapath], PROCESS)
