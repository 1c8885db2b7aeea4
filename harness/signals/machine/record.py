"""The machine signal's parts of summary.json: how busy the CPUs where the clients ran were."""
from typing import NotRequired, TypedDict


class MachinePart(TypedDict):
    busy_while_waiting: float        # a share, from the cell's send to its error
    busy_while_late: NotRequired[float | None]   # from the latest its window allows to the error
    saturated: bool
    wakeup_late_s: NotRequired[float]            # the machine's sampler woke this late meanwhile (stalls.py)


class MachineCell(TypedDict, total=False):
    machine: MachinePart


class ClockStepPart(TypedDict):
    at_s: float                      # after the fault's stamp (the first reading after the step)
    step_s: float                    # how far the wall clock moved against the kernel's uptime, at least


class StallPart(TypedDict):
    at_s: float                      # when the sampler woke, after the fault's stamp
    late_s: float                    # how far past its wait it woke


class MachineRun(TypedDict):
    busy_before_fault: float | None
    busy_after_fault: float | None
    saturated_above: float
    clock_steps: NotRequired[list[ClockStepPart]]
    late_wakeups: NotRequired[list[StallPart]]
