"""How busy the machine the clients ran on was (/proc/stat, read by bash itself twice a second
in the first cell's container: no process per sample): while each cell waited for the error that
ended its hang, while it was late (from the latest its window allows to the error), and around
the fault. A cell whose error came late while the machine had no idle CPU says so beside its
verdict (measure/machine_cpu.py)."""
import functools
from pathlib import Path

from ..load import sampling
from ..measure import machine_cpu
from .base import Load, Signal

PROCESS = "blackhole-cpu-sampler"
INTERVAL_S = 0.5
SAMPLE = "read -r line < /proc/stat; printf '%s\\n' \"$line\""
AROUND_FAULT_S = 10.0


class MachineCpu(Signal):
    name = "machine"

    def loads(self, plan):
        container, _ = plan.placement(plan.scenario.cells[0].service)
        return [Load(container, plan.run.machine_cpu(),
                     tuple(sampling.every(INTERVAL_S, plan.duration_s, SAMPLE, PROCESS)), PROCESS,
                     stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True)]

    def summarize_cell(self, record):
        outcome, window, t_fault = record.outcome, record.window, record.context.t_fault
        if outcome.detect_s is None or outcome.sent_s is None:
            return {}
        samples = _samples(record.context)
        waiting = machine_cpu.busy_share(samples, t_fault + outcome.sent_s, t_fault + outcome.detect_s)
        if waiting is None:
            return {}
        part = {"busy_while_waiting": waiting}
        due_by = None if window.expected_s is None else window.latest_s + window.late_send_s(outcome.sent_s)
        if due_by is not None and outcome.detect_s > due_by:
            part["busy_while_late"] = machine_cpu.busy_share(samples, t_fault + due_by, t_fault + outcome.detect_s)
        deciding = part.get("busy_while_late", waiting)
        return {"machine": {**part, "saturated": deciding is not None and deciding >= machine_cpu.SATURATED}}

    def summarize_run(self, context):
        samples = _samples(context)
        if not samples or context.fault is None:
            return {}
        t = context.t_fault
        return {"busy_before_fault": machine_cpu.busy_share(samples, t - AROUND_FAULT_S, t),
                "busy_after_fault": machine_cpu.busy_share(samples, t, t + AROUND_FAULT_S),
                "saturated_above": machine_cpu.SATURATED}


def _samples(context):
    path = context.run.machine_cpu()
    return _parsed(str(path), path.stat().st_mtime_ns) if path.exists() else []


@functools.lru_cache(maxsize=4)
def _parsed(path, _mtime_ns):
    """The file's samples, read once for all the cells of a run (keyed by its change time too)."""
    return tuple(machine_cpu.parse_samples(Path(path).read_text()))

