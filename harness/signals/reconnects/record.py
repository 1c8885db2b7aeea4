"""The reconnects signal's part of a cell's entry in summary.json: each connect its client made
from the fault on, where it went and how it ended; and of the run, what each address was."""
from typing import TypedDict


class AttemptPart(TypedDict):
    at_s: float                  # s after the fault
    address: str | None
    took_s: float
    error: str | None            # None: it connected


class ReconnectsCell(TypedDict, total=False):
    reconnects: list[AttemptPart]


class ReconnectsRun(TypedDict, total=False):
    addresses: dict[str, str]    # {address: what it was, in words}
    silent: list[str]            # the servers a step silenced (host_silent); absent in runs before 2026-12-05
