"""What every kind of run has: its scenario, the lab's project, engine and environment, where
results go, and a terminal to talk to."""
import errno
import sys
import threading
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Generic, TypeVar

from ..control import control_plane
from ..databases import database
from ..errors import DiskFull, LabError
from ..lab import ClientCell, Lab, LabPlace, LabRequest, lab_on, planned_addresses
from . import preflight
from ..interrupts import Cleanup
from ..scenario.burst import BurstScenario
from ..scenario.model import Cell, Scenario
from ..store import RunDir, shown
from ..topology import DEFAULT_CELL_NAMESPACES
from .events import EventLog
from .phases import Phases

ScenarioOfRun = TypeVar("ScenarioOfRun", Scenario, BurstScenario)
CleanupEntry = tuple[str, Callable[[], object], float]


def run_steps(cleanup: Cleanup, steps: Sequence[CleanupEntry | list[CleanupEntry]], events: EventLog) -> list[str]:
    """Cleanup: each entry of steps is (what it does, step, limit in s), or a list of such entries
    that run side by side. Each runs whatever became of the others, and no longer than its limit
    (a step that overruns is left behind in its thread, and recorded); each one's time is recorded.
    Returns what went wrong, one line per step that failed or overran."""
    wrong = []
    for entry in steps:
        group = entry if isinstance(entry, list) else [entry]
        cleanup.step(" and ".join(doing for doing, _, _ in group))
        started = events.clock()
        workers = [(doing, limit_s, _start_step(doing, step)) for doing, step, limit_s in group]
        for doing, limit_s, (worker, outcome) in workers:
            worker.join(max(0.0, started + limit_s - events.clock()))
            if worker.is_alive():
                events.add("cleanup_overran", step=doing, limit_s=limit_s)
                wrong.append(f"{doing}: still not done after {limit_s:g} s")
            elif "error" in outcome:
                events.add("cleanup_failed", step=doing, error=repr(outcome["error"]))
                wrong.append(f"{doing}: {str(outcome['error']).strip() or repr(outcome['error'])}")
            else:
                events.add("cleanup_step", step=doing, started_t=started, took_s=round(outcome["took_s"], 3))
    return wrong


def _start_step(doing: str, step: Callable[[], object]) -> tuple[threading.Thread, dict[str, Any]]:
    outcome: dict[str, Any] = {}      # error: what it raised; took_s

    def attempt() -> None:
        started = time.monotonic()
        try:
            step()
        except BaseException as exc:       # recorded by run_steps; cleanup goes on
            outcome["error"] = exc
        outcome["took_s"] = time.monotonic() - started
    worker = threading.Thread(target=attempt, name=doing, daemon=True)
    worker.start()
    return worker, outcome


class RunBase(Generic[ScenarioOfRun]):
    def __init__(self, scenario: ScenarioOfRun, raw_definition: Any, project: str | None = None,
                 lab_env: Mapping[str, str] | None = None, results: str | os.PathLike[str] | None = None,
                 out: IO[str] = sys.stdout, engine: LabPlace = None,
                 keep_lab: bool = False) -> None:
        """project: the Compose project (None: one of the run's own, so runs can share an engine);
        keep_lab: leave a failover run's lab up afterwards, on this host, to look into its servers
        (`make down LAB_PROJECT=<project>` or `make clean` removes it)."""
        self.scenario: ScenarioOfRun = scenario
        self.raw = raw_definition
        self.keep_lab = keep_lab
        self.project, self.results, self.out = project, results, out
        self.lab_env: Mapping[str, str] = lab_env or {}
        self.engine = engine
        self.run: RunDir | None = None       # open_run's; a run that failed before it has no RunDir
        self.events: EventLog | None = None
        self._lab: Lab | None = None
        self.phases = Phases()          # what the run is doing, and what undoes what it did (phases.py)
        self.ended_early = False        # interrupted or failed: record_end said so

    @property
    def phase(self) -> str:
        """What the run was doing, for an interruption's record."""
        return self.phases.current

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def open_run(self) -> None:
        """The run's directory (holding the definition as run), its event log, and its lab
        (nothing started yet): one client container per namespace the cells need."""
        s = self.scenario
        self.run = RunDir.create(s.id, self.raw, self.results)
        self.project = self.project or f"blackhole-{self.run.name.lower()}"
        clients = list({c.namespace: ClientCell(c.namespace, c.kernel_sysctls(), c.netem())
                        for c in self.client_cells()}.values())
        self.control = control_plane(getattr(s, "control", None), getattr(s, "control_settings", ()))
        db = database(getattr(s, "database", None))
        self._lab = lab_on(self.engine, LabRequest(
            project=self.project, cells=tuple(clients), datapath=s.datapath,
            env={**self.lab_env, **s.lab_env(), **self.control.lab_settings()}, workdir=self.run.lab_workdir,
            servers=s.servers_used(), net_admin=frozenset(self.nodes_changed()),
            cell_namespaces=getattr(s, "cell_namespaces", DEFAULT_CELL_NAMESPACES),
            services=(self.control.services(planned_addresses(), db, s.servers_used()),), database=db))
        faults = [step.make_fault() for step in s.steps if step.kind == "fault"]
        refused = [why for why in map(self.lab.refusal, faults) if why]
        if refused:
            raise LabError(refused[0])
        self.refuse_what_the_kernel_lacks = preflight.kernel_supports(clients, self.control, faults)
        self.events = EventLog(self.run.events_file, clock=self.lab.now)
        self.say(f"run: {s.id} -> {shown(self.run.path)}")

    @property
    def lab(self) -> Lab:
        """The lab open_run made (nothing may ask for it before)."""
        if self._lab is None:
            raise RuntimeError("the run has no lab: open_run() first")
        return self._lab

    def opened(self) -> tuple[RunDir, EventLog]:
        """The run's directory and event log, which open_run made (every phase after it has them)."""
        if self.run is None or self.events is None:
            raise RuntimeError("the run is not open: open_run() first")
        return self.run, self.events

    @property
    def run_dir(self) -> RunDir:
        return self.opened()[0]

    @property
    def event_log(self) -> EventLog:
        return self.opened()[1]

    def run_then_clean_up(self, body: Callable[[], object], before_cleanup: Callable[[], object] | None = None) -> RunDir:
        """body(), then always the undos of the phases it entered (before_cleanup() first, if
        given), each bounded; an error or a signal on the way is recorded as the run's end."""
        run, events = self.opened()
        try:
            body()
        except BaseException as exc:
            if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
                full = DiskFull(f"the disk holding {shown(run.path)} is full ({exc})")
                run.release_reserve("end")
                self.record_end(full)
                raise full from exc
            if isinstance(exc, DiskFull):
                run.release_reserve("end")
            self.record_end(exc)
            raise
        finally:
            with Cleanup() as cleanup:
                if before_cleanup:
                    before_cleanup()
                wrong = run_steps(cleanup, self.phases.cleanup_steps(), events)
                for line in wrong:
                    self.say(f"run: cleanup went wrong: {line}")
                if wrong:
                    self.say("run: `make clean` removes whatever the run left behind")
                self.say(f"run: results in {shown(run.path)}")
        return run

    def record_end(self, exc: BaseException) -> None:
        """An interruption (which signal, in which phase) or a failure (why), in the events."""
        self.ended_early = True
        events = self.opened()[1]
        if isinstance(exc, KeyboardInterrupt):
            name = getattr(exc, "name", "SIGINT")
            events.add("interrupted", signal=name, phase=self.phase)
            self.say(f"run: interrupted by {name} while {self.phase}; undoing faults and taking the lab down")
        else:
            events.add("failed", error=str(exc) or repr(exc), phase=self.phase)
            self.say(f"run: failed while {self.phase}: {exc}")

    def nodes_changed(self) -> set[str]:
        """Nodes whose network namespace the scenario's faults change (they need NET_ADMIN)."""
        return {node for step in self.scenario.steps if step.kind == "fault"
                for node in step.make_fault().acts_inside()}

    def client_cells(self) -> Sequence[Cell]:
        """The scenario.Cell of each measured client (their namespaces decide the containers)."""
        if isinstance(self.scenario, BurstScenario):
            return [c.cell for c in self.scenario.cells]
        return self.scenario.cells
