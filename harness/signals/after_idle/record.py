"""The after-idle signal's part of a cell's entry in summary.json: its first operation after
the idle period."""
from typing import TypedDict


class NextOperation(TypedDict):
    took_s: float
    ok: bool
    error: str | None
    server: str | None


class AfterIdleCell(TypedDict, total=False):
    after_idle: NextOperation | None
