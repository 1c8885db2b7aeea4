"""A cell whose probe kept quiet around the fault (idle_s): what its first operation after the
idle period met. The probe's own load says when it goes quiet (probe.py)."""
from ...measure.run_record import next_operation
from ..base import Signal
from .record import AfterIdleCell


class AfterIdle(Signal):
    name = "after_idle"

    def summarize_cell(self, record) -> AfterIdleCell:
        if not (record.idle_rel and record.idle_rel[1] is not None):
            return {}
        return {"after_idle": next_operation(record.ops, record.idle[1])}
