"""The probe signal's part of a cell's entry in summary.json: the cell's outcome (detect,
recover) against its model window, and what a zoo client's own log says beyond it."""
from typing import NotRequired, TypedDict

from ...measure.verdict import VerdictPart


class ProbePart(TypedDict):
    detect_s: float | None           # the first error after the fault, s after it
    recover_s: float | None          # the first success after that
    error: str | None
    stall_s: float | None
    sent_s: float | None             # when the failed operation was sent
    server_before: str | None
    server_after: str | None
    failed_operations: int
    never_worked: str | None
    within_window: bool | None       # None: not decided by the run's end (the verdict's value, as a boolean)
    verdict: VerdictPart
    ratio: float | None              # detect / the model's expected
    waits_for_a_lost_answer: NotRequired[bool]


class ClientEntry(TypedDict):
    driver: str | None
    saw: str | None                  # what the application was told
    reconnect_s: float | None
    dead_connections_handed_out: int
    socket_options_applied: dict[str, int]   # {option: what the kernel read back}


class ClientPart(ClientEntry):
    name: str                        # the zoo client (load/clients.py)
    settings: dict[str, object]


class ProbeCell(TypedDict):
    survived: bool
    probe: ProbePart
    client: NotRequired[ClientPart]
