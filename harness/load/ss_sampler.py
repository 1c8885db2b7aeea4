"""Evidence: `ss -tino` of a client container's sockets to the VIP, sampled twice a second.

Output blocks start with '@ <unix time>'; harness/measure/ss_log.py reads them back.
"""
PROCESS = "blackhole-ss-sampler"
INTERVAL_S = 0.5


def command(vip, duration_s):
    samples = int(duration_s / INTERVAL_S) + 1
    script = (f"# {PROCESS}\n"
              f"i=0; while [ $i -lt {samples} ]; do "
              f"echo \"@ $(date +%s.%N)\"; ss -tinoH dst {vip}; i=$((i+1)); sleep {INTERVAL_S}; done")
    return ["sh", "-c", script]
