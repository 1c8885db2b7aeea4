"""A failover run's steps as it takes them: each fault injected and when it took effect (its own
word, else the step's start), each heal and wait; the faults in place, and their undoing in
reverse, each one's failure recorded without stopping the next.

A fault is injected in a thread of its own while the run's view goes on reading the clients: in a
loaded run a second fault step (promote_replica) took 3.49 s, and a view that stood still meanwhile
said nothing of the clients' first seconds after the first fault."""
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ..faults.base import Fault
from ..lab.base import Lab
from ..measure.effects import Landing
from ..scenario.model import Step
from .events import EventLog
from .live import LiveView


class Steps:
    def __init__(self, lab: Lab, events: EventLog, view: LiveView, watch: Callable[[float], object],
                 follow: Callable[["Future[Any]"], object], observe_s: float,
                 pause: Callable[[str], object] | None = None) -> None:
        """watch(until): the run watches its clients until then (a wait step); follow(work): the view
        reads the clients until work is done (a fault landing); pause(description): called before
        each fault (a live demo waits for Enter)."""
        self.lab, self.events, self.view, self.watch, self.follow = lab, events, view, watch, follow
        self.observe_s, self.pause = observe_s, pause
        self.injected: list[Fault] = []
        self.counting_from_unnoticed = False   # the view counts from a fault existing flows do not notice

    def stopped(self) -> set[str]:
        """The services the faults in place stop (the lab's watch does not count them as gone)."""
        return {service for fault in self.injected for service in fault.stops()}

    def take(self, index: int, step: Step) -> None:
        if step.kind == "wait":
            self.view.note(step.describe())
            self.watch(self.lab.now() + step.seconds)
            return
        if step.kind == "heal":
            fault = next(f for f in reversed(self.injected) if f.name == step.name)
            started = self.lab.now()
            fault.recover()
            self.events.add("heal", name=step.name, step=index, started_t=started)
            self.view.note(step.describe())
            return
        if self.pause:
            self.pause(step.describe())
        fault = step.make_fault(self.lab)
        started = self.lab.now()
        landing, done = self._inject(fault)
        # t: when it took effect if the fault knows (landed_t), else when the step started;
        # uncertainty_s: how much later than t it may have taken effect.
        t = started if landing.landed_t is None else landing.landed_t
        uncertainty = done - started if landing.uncertainty_s is None else landing.uncertainty_s
        # the view counts from the same fault as the summary (run_record.first_fault)
        if self.view.t_fault is None or self.counting_from_unnoticed and fault.effect().flows_notice:
            self.counting_from_unnoticed = not fault.effect().flows_notice
            self.view.fault_started(t, self.observe_s, fault.effect())
        self.events.add("fault", t=t, started_t=started, done_t=done, uncertainty_s=round(uncertainty, 3),
                        name=step.name, params=dict(step.params), step=index, effect=fault.effect().to_record(),
                        **({"seen": landing.seen} if landing.seen is not None else {}))
        self.view.note(f"{step.describe()} (took {done - started:.2f} s)", started)

    def _inject(self, fault: Fault) -> tuple[Landing, float]:
        """The fault's landing and when its inject() returned. Interrupted meanwhile (Ctrl-C), the
        run waits for the fault to finish landing, so that its undoing undoes it too."""
        def inject() -> tuple[Landing, float]:
            landing = fault.inject() or Landing()
            return landing, self.lab.now()
        pool = ThreadPoolExecutor(1, thread_name_prefix=f"fault-{fault.name}")
        work = pool.submit(inject)
        try:
            self.follow(work)
        finally:
            pool.shutdown(wait=True)
            if work.exception() is None:
                self.injected.append(fault)
        return work.result()

    def undo(self) -> None:
        for fault in reversed(self.injected):
            try:
                fault.recover()
                self.events.add("recovered", name=fault.name)
            except Exception as exc:          # the next fault is still undone; the failure is recorded
                self.events.add("recover_failed", name=fault.name, error=repr(exc))
