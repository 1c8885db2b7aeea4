"""The retransmissions signal's part of a cell's entry in summary.json: the kernel's own end of
the blackholed connection."""
from typing import TypedDict


class KernelPart(TypedDict):
    gave_up_s: list[float]           # [earliest, latest] s after the fault
    in_window: bool
    reported_after_s: float          # how long after it the client reported


class Rung(TypedDict):
    retransmission: int              # the n-th retransmission (#1 starts tcp_retries2's clock)
    due_s: list[float]               # [earliest, latest] s after the fault ss puts it at
    model_s: list[float]             # [earliest, latest] the model's ladder allows
    in_model: bool


class LadderPart(TypedDict):
    rungs: list[Rung]
    in_model: bool                   # every rung ss saw in the model's window
    seen: int                        # the retransmissions ss saw by the run's end


class ReportPart(TypedDict):
    runtime: str                     # JVM, Go, Node.js, Python, C (load/clients.py)
    reported_after_s: float          # the client's report after its kernel gave up
    runtime_lag_s: float | None      # how late this run's read-timeout cells of that runtime reported
    lag_from: str | None             # the cell that measured it
    verdict: str                     # report_lag.IN_TIME, LATE or UNKNOWN


class RetransmissionsCell(TypedDict, total=False):
    kernel: KernelPart
    ladder: LadderPart               # a cell still waiting when the run ended: its retransmissions so far
