"""Evidence: `ss -tino` of the client sockets to the VIP in each network namespace of a client
container, sampled twice a second by one sampler per container: blocks headed '@ <unix time>',
then the sockets, then '@. <unix time>' once ss had returned (on a loaded node ss took up to a
second to start, and a timer it read was that much nearer); harness/measure/ss_log.py reads them back.

A container that is one namespace gets command(): its output is that namespace's file as it is.
One that holds several (cells' namespaces inside it, lab/netns_cells.py) gets group_command(),
which enters each with nsenter and tags its lines "<namespace>\t<line>" (the run writes them to
that namespace's file, as it does a probe group's).
"""
from ...load.sampling import every, every_in_namespaces

PROCESS = "blackhole-ss-sampler"
INTERVAL_S = 0.5


def sample(vip):
    return f'ss -tinoH dst {vip}; echo "@. $EPOCHREALTIME"'


def command(vip, duration_s):
    return every(INTERVAL_S, duration_s, sample(vip), PROCESS)


def group_command(vip, duration_s, namespaces):
    """namespaces: [(tag, the file of its network namespace or None), ...]."""
    return every_in_namespaces(INTERVAL_S, duration_s, sample(vip), namespaces, PROCESS)
