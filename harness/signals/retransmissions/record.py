"""The retransmissions signal's part of a cell's entry in summary.json: the kernel's own end of
the blackholed connection."""
from typing import TypedDict


class KernelPart(TypedDict):
    gave_up_s: list[float]           # [earliest, latest] s after the fault
    in_window: bool
    reported_after_s: float          # how long after it the client reported


class RetransmissionsCell(TypedDict, total=False):
    kernel: KernelPart
