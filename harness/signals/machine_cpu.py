"""How busy the machine the clients ran on was (/proc/stat, read by bash itself twice a second
in the first cell's container: no process per sample): while each cell waited for the error that
ended its hang, and around the fault. A cell whose error came late while the machine had no idle
CPU says so beside its verdict (measure/machine_cpu.py)."""
from ..measure import machine_cpu
from ..load import sampling
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
        outcome, t_fault = record.outcome, record.context.t_fault
        if outcome.detect_s is None or outcome.sent_s is None:
            return {}
        share = machine_cpu.busy_share(_samples(record.context), t_fault + outcome.sent_s, t_fault + outcome.detect_s)
        return {} if share is None else {"machine": {"busy_while_waiting": share,
                                                     "saturated": share >= machine_cpu.SATURATED}}

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
    return machine_cpu.parse_samples(path.read_text()) if path.exists() else []
