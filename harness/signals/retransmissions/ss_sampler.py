"""Evidence: `ss -tino` of the client sockets to the VIP in each network namespace of a client
container, sampled twice a second by one sampler per container: blocks headed '@ <unix time>',
then the sockets, then '@. <unix time>' once ss had returned (on a loaded node ss took up to a
second to start, and a timer it read was that much nearer); harness/measure/ss_log.py reads them back.

A container that is one namespace gets command(): its output is that namespace's file as it is.
One that holds several (cells' namespaces inside it, lab/netns_cells.py) gets group_command(),
which enters each with nsenter and tags its lines "<namespace>\t<line>" (the run writes them to
that namespace's file, as it does a probe group's).

The run's stop gets one last sample: the kernel's end of a blackholed connection is read from a
sample after its last timer was due (kernel_gave_up.py), and a run that ends 0.2 s after its last
cell is back could stop the sampler before its next one (a make test run found no such sample for a
tcp_retries2=5 cell: its last timer was due 0.44 s before the stop, the next sample 0.5 s after it).
"""
from collections.abc import Sequence

from ...load.sampling import every, every_in_namespaces

PROCESS = "blackhole-ss-sampler"
INTERVAL_S = 0.5


def sample(vip: str) -> str:
    return f'ss -tinoH dst {vip}; echo "@. $EPOCHREALTIME"'


def command(vip: str, duration_s: float) -> list[str]:
    return every(INTERVAL_S, duration_s, sample(vip), PROCESS, once_more_at_stop=True)


def group_command(vip: str, duration_s: float, namespaces: Sequence[tuple[str, str | None]]) -> list[str]:
    """namespaces: [(tag, the file of its network namespace or None), ...]."""
    return every_in_namespaces(INTERVAL_S, duration_s, sample(vip), namespaces, PROCESS, once_more_at_stop=True)
