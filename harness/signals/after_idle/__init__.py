"""A cell whose probe kept quiet around the fault (idle_s): what its first operation after the
idle period met. The probe's own load says when it goes quiet (probe.py)."""
from ...measure.run_record import next_operation
from ..base import CellRecord, Signal
from .record import AfterIdleCell


class AfterIdle(Signal):
    name = "after_idle"

    def summarize_cell(self, record: CellRecord) -> AfterIdleCell:
        idle = record.idle
        if idle is None or not idle[1]:
            return {}
        return {"after_idle": next_operation(record.ops, idle[1])}
