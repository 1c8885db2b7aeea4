"""How busy the machine the clients ran on was (/proc/stat, read by bash itself twice a second
in the first cell's container: no process per sample): while each cell waited for the error that
ended its hang, while it was late (from the latest its window allows to the error), and around
the fault. A cell whose error came late while the machine had no idle CPU says so beside its
verdict (signals/machine/machine_cpu.py). Each sample also reads the kernel's uptime between two
wall-clock stamps: a run whose wall clock was set while it ran says so (clock_steps.py)."""
import functools
from pathlib import Path

from ...load import sampling
from ..base import CellRecord, Load, LoadPlan, RunContext, Signal
from . import clock_steps, lateness, machine_cpu, section, stalls
from .record import MachineCell, MachinePart, MachineRun

PROCESS = "blackhole-cpu-sampler"
INTERVAL_S = 0.5
SAMPLE = ("read -r line < /proc/stat; before=$EPOCHREALTIME; read -r up _ < /proc/uptime; "
          "printf '%s\\nclock %s %s %s\\n' \"$line\" \"$before\" \"$up\" \"$EPOCHREALTIME\"")
AROUND_FAULT_S = 10.0


class MachineCpu(Signal):
    name = "machine"
    files = {"cpu": "machine/cpu.txt"}
    section = section
    lateness = lateness

    def loads(self, plan: LoadPlan) -> list[Load]:
        container, _ = plan.placement(plan.scenario.cells[0].service)
        return [Load(container, self.file(plan.run, "cpu"),
                     tuple(sampling.every(INTERVAL_S, plan.duration_s, SAMPLE, PROCESS)), PROCESS,
                     stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True)]

    def summarize_cell(self, record: CellRecord) -> MachineCell:
        outcome, window, t_fault = record.outcome, record.window, record.context.t_fault
        if outcome.detect_s is None or outcome.sent_s is None:
            return {}
        samples = _samples(record.context)
        waiting = machine_cpu.busy_share(samples, t_fault + outcome.sent_s, t_fault + outcome.detect_s)
        if waiting is None:
            return {}
        due_by = None if window.expected_s is None else window.bounds()[2] + window.late_send_s(outcome.sent_s)
        late = due_by is not None and outcome.detect_s > due_by
        while_late = (machine_cpu.busy_share(samples, t_fault + due_by, t_fault + outcome.detect_s)
                      if late and due_by is not None else None)
        deciding = while_late if late else waiting
        saturated = deciding is not None and deciding >= machine_cpu.SATURATED
        part: MachinePart = ({"busy_while_waiting": waiting, "busy_while_late": while_late, "saturated": saturated} if late
                             else {"busy_while_waiting": waiting, "saturated": saturated})
        stall = stalls.resumed_between(_late_wakeups(record.context), t_fault + due_by,
                                       t_fault + outcome.detect_s) if late and due_by is not None else None
        if stall is not None:
            part["wakeup_late_s"] = stall.late_s
        return {"machine": part}

    def summarize_run(self, context: RunContext) -> MachineRun | None:
        samples = _samples(context)
        if not samples or context.fault is None:
            return None
        t = context.t_fault
        steps = clock_steps.steps([s.clock for s in samples if s.clock is not None])
        found: MachineRun = {"busy_before_fault": machine_cpu.busy_share(samples, t - AROUND_FAULT_S, t),
                             "busy_after_fault": machine_cpu.busy_share(samples, t, t + AROUND_FAULT_S),
                             "saturated_above": machine_cpu.SATURATED,
                             "clock_steps": [{"at_s": round(step.t - t, 2), "step_s": step.step_s} for step in steps]}
        late = _late_wakeups(context)
        if late:
            found["late_wakeups"] = [{"at_s": round(stall.resumed_t - t, 2), "late_s": stall.late_s} for stall in late]
        return found


def _late_wakeups(context: RunContext) -> tuple[stalls.Stall, ...]:
    """The sampler's late wakes over the whole run (stalls.py), found once for all its cells."""
    path = MachineCpu.file(context.run, "cpu")
    return _found_late(str(path), path.stat().st_mtime_ns) if path.exists() else ()


@functools.lru_cache(maxsize=4)
def _found_late(path: str, mtime_ns: int) -> tuple[stalls.Stall, ...]:
    return tuple(stalls.stalls(_parsed(path, mtime_ns), INTERVAL_S))


def _samples(context: RunContext) -> tuple[machine_cpu.Sample, ...]:
    path = MachineCpu.file(context.run, "cpu")
    return _parsed(str(path), path.stat().st_mtime_ns) if path.exists() else ()


@functools.lru_cache(maxsize=4)
def _parsed(path: str, _mtime_ns: int) -> tuple[machine_cpu.Sample, ...]:
    """The file's samples, read once for all the cells of a run (keyed by its change time too)."""
    return tuple(machine_cpu.parse_samples(Path(path).read_text()))

