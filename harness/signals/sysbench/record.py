"""The sysbench signal's part of a cell's entry in summary.json."""
from typing import TypedDict


class SysbenchPart(TypedDict):
    detect_s: float | None
    recover_s: float | None
    stalled_s: int                   # report lines with tps 0 from the fault to recovery
    reconnects: float
    disrupted: bool
    crashed: bool
    within_window: bool
    socket_options_applied: dict[str, int]   # {option: what the kernel read back}


class SysbenchCell(TypedDict, total=False):
    sysbench: SysbenchPart
