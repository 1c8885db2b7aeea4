"""Evidence: `ss -tino` of a client container's sockets to the VIP, sampled twice a second.

Output blocks start with '@ <unix time>'; harness/measure/ss_log.py reads them back.
"""
from .sampling import every

PROCESS = "blackhole-ss-sampler"
INTERVAL_S = 0.5


def command(vip, duration_s):
    return every(INTERVAL_S, duration_s, f"ss -tinoH dst {vip}", PROCESS)
