"""The after-idle signal's part of a cell's entry in summary.json: its first operation after
the idle period."""
from typing import TypedDict

from ...measure.run_record import NextOperation


class AfterIdleCell(TypedDict, total=False):
    after_idle: NextOperation | None
