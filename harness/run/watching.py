"""A failover run's watching of its clients (FailoverRun's, harness/run/failover.py): reading what
they write a few times a second, the wait for every cell's first answer, when a load has exited,
and whether the control plane has acted on the steps' changes."""
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any

from ..errors import LabError
from . import loads

if TYPE_CHECKING:
    from ..control.base import ControlPlane
    from ..lab.base import Lab
    from ..store import RunDir
    from .events import EventLog
    from .lab_watch import LabWatch
    from .live import LiveView

TICK_S = 0.1                  # how often the run reads the clients' output
CONTROL_CHECK_EVERY_S = 3.0   # how often the run asks whether the control plane has acted


class WatchesTheClients:
    """Needs of its run (FailoverRun sets them once its lab is up; declared here for the type checker)."""
    view: "LiveView"
    lab_watch: "LabWatch | None"      # None until the lab is up
    loads: "loads.RunningLoads"
    scenario: Any
    control: "ControlPlane"
    servers_ready: "Future[Any]"
    loads_gone: set[tuple[str, str]]
    control_before: Any               # the control plane's progress() before the steps (None: nothing to wait for)
    control_caught_up_at: float | None
    control_checked: float

    if TYPE_CHECKING:
        @property
        def lab(self) -> "Lab":
            ...

        @property
        def ready_limit_s(self) -> float:
            ...

        def opened(self) -> tuple["RunDir", "EventLog"]:
            ...

    def _wait_until_every_cell_answers(self) -> None:
        """The warm-up counts from when every probe has completed an operation (and every sysbench
        reported): a slow start (a loaded guest) must not eat into it. Bounded."""
        deadline = self.lab.now() + self.ready_limit_s
        while self.lab.now() < deadline:
            self._watch(self.lab.now() + TICK_S)
            if self.servers_ready.done() and (failed := self.servers_ready.exception()) is not None:
                raise failed                             # a server that never got healthy, say
            if not self.view.waiting_for():
                return
            ended = self.loads.ended()
            if ended:
                raise LabError(f"a client program ended before every client answered: {'; '.join(ended)}")
        raise LabError(f"no answer within {self.ready_limit_s:g} s from the clients of: "
                       f"{', '.join(self.view.waiting_for())} (see their logs in {self.opened()[0].path})")

    def _watch(self, until: float, stop_when_recovered: bool = False) -> None:
        recovered_at: float | None = None
        while self.lab.now() < until:
            now = self.lab.now()
            time.sleep(max(0.0, min(TICK_S - (now - self.view.started) % TICK_S, until - now)))
            now = self.lab.now()
            self.view.tick(now)
            if self.lab_watch is not None:
                self.lab_watch.tick(now)
            if self.view.t_fault is not None:
                self._loads_ended(now)
            if stop_when_recovered and self.view.all_recovered():
                recovered_at = recovered_at or now
                if now - recovered_at >= loads.watch_after_recovery_s(self.scenario) and self._control_caught_up(now):
                    self.view.note("every client recovered")
                    return

    def _follow(self, work: "Future[Any]") -> None:
        """The view alone until work is done: while a fault lands, the lab's look would count the
        services it stops as broken, and a load it ends is called out at the next watch."""
        while not wait([work], timeout=TICK_S - (self.lab.now() - self.view.started) % TICK_S).done:
            self.view.tick(self.lab.now())

    def _beside_the_view(self, work: Callable[[], object], name: str) -> None:
        """work() in a thread of its own while the view goes on (_follow): the directors' tables read
        after the steps took 2.84 s on a busy machine, and a workshop's narration stood still for it."""
        pool = ThreadPoolExecutor(1, thread_name_prefix=name)
        done = pool.submit(work)
        try:
            self._follow(done)
        finally:
            pool.shutdown(wait=True)
        done.result()

    def _loads_ended(self, now: float) -> None:
        exited = self.loads.exited_cells()
        for cell, (what, how) in exited.items():
            if (cell, what) not in self.loads_gone:
                self.loads_gone.add((cell, what))
                self.opened()[1].add("load_ended", cell=cell, load=what, how=how)
        self.view.loads_ended(exited, now)

    def _control_caught_up(self, now: float) -> bool:
        """Has the control plane acted on what the steps changed? Asked every few seconds (in a
        guest each question is a process in the director's namespace)."""
        if self.control_before is None or self.control_caught_up_at is not None:
            return True
        if now - self.control_checked < CONTROL_CHECK_EVERY_S:
            return False
        self.control_checked = now
        if not self.control.caught_up(self.lab, self.control_before):
            return False
        self.control_caught_up_at = self.lab.now()
        self.opened()[1].add("control_caught_up", t=self.control_caught_up_at)
        self.view.note(f"{self.control.name} has acted on the steps' changes")
        return True
