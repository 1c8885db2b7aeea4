"""What a measured signal is (docs/adding-a-signal.md): one folder of harness/signals/ holding
the loads it runs during a run, pure functions from the run's files to its part of the summary,
and what the page shows of it.

  name                       its key (and its folder's name)
  files                      {key: its file under the run, with {names} to fill}: file(run, key, **names)
  loads(plan)                [Load] it starts (plan: LoadPlan), each bounded in time by its command line
  reads_back(scenario)       what it reads from the lab once the loads stopped ('': nothing): read_back(lab, run, scenario)
  summarize_cell(record)     {key: value} it adds to a cell's entry in summary.json (CellRecord)
  summarize_run(context)     {…} kept under summary["signals"][name] (nothing: left out)
  section                    its part of the page and summary.md: its folder's section module (TITLE,
                             READS, blocks(summary)), or None
  chart                      the chart it draws (charts/<chart>), by its folder's chart.py's draw(run, summary, path)
  lateness                   what it says beside a late cell's verdict: a module with reason(cell) and
                             summary_note(summary), or None

Signals run and summarize in the order of the registry (signals/registry.py); a cell's entry
holds their parts, and the page their sections and charts, in that order.
"""
import dataclasses
import functools
import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from ..control.base import ControlPlane, DirectorChange, control_plane
from ..databases.base import DatabaseEngine
from ..lab_commands import RunsCommands
from ..measure import kernel_model, probe_log, recovery, ss_log
from ..measure.effects import Effect
from ..measure.predict import Idle, predict
from ..measure.run_files import RunFiles
from ..measure.run_record import (Event, caught_connection_samples, fault_effect, first_fault, heal_of,
                                  observed_until, run_status)
from ..measure.summary_record import RunSummary
from ..measure.window import Window
from ..pools import POOLS, effect_through_pool
from ..topology import host_name
from .scenario_view import SignalCell, SignalScenario

LOAD_MARGIN_S = 60.0          # loads run this much longer than the run could need, then stop by themselves


@dataclasses.dataclass(frozen=True)
class Load:
    service: str              # the container it runs in
    output: Path | None       # the run's file its stdout goes to (None: a group's, see cells)
    command: tuple[str, ...]
    process_pattern: str      # what `pkill -f` matches to stop it
    cell: str | None = None          # the cell whose client it is
    stop_signal: str = "INT"  # what it is asked to stop with (the clients end cleanly on SIGINT)
    stops_on_eof: bool = False   # it ends when its stdin is closed (no exec needed to stop it)
    cells: tuple[tuple[str, Path], ...] = ()   # a group: ((tag, its file), ...), its output tagged (a probe group: by cell)
    first_input: str = ""     # written to its stdin as it starts
    takes_commands: bool = False   # a probe group: "<cell>\t<text>" lines on its stdin reach that cell
    watched_as: str = ""      # what the run waits for from its cells' files ('client', 'sysbench'); '' nothing
    gated: bool = False       # it starts ahead of the servers and waits for its gate (LoadPlan.client_gate)


Placement = Callable[[str], tuple[str, str | None]]     # service -> (its container's service, netns file or None)
Gate = tuple[str, float] | tuple[()]                     # (file, limit_s), or none


def _in_own_container(service: str) -> tuple[str, str | None]:
    return service, None


@dataclasses.dataclass(frozen=True)
class LoadPlan:
    """What a signal needs to plan its loads: the scenario, where its files go, the VIP, the
    director's datapath, placement(service) -> (container service, netns file or None), and
    the VIPs of other directors a control plane runs ({variant: its VIP})."""
    scenario: SignalScenario
    run: RunFiles
    vip: str
    datapath: str
    placement: Placement = _in_own_container
    variant_vips: dict[str, str] = dataclasses.field(default_factory=dict)
    sampled_directors: tuple[str, ...] = ()   # directors whose table of real servers is sampled (a control plane's)
    table_sample: str = ""          # the bash command that samples it ('': IPVS's, signals/director_table/)
    watch_vip: bool = False         # sample each client namespace's neighbour entry for the VIP (VRRP)
    answer_wait_s: float = 0.0      # how long the run may wait, once they start, for every client's first answer
    sysbench_gate: Gate = ()        # (file, limit_s): sysbench starts ahead and waits for the file (load/sysbench.py)
    client_gate: Gate = ()          # (file, limit_s): the zoo's clients that start ahead wait for it (load/zoo.py)
    proxy_directors: tuple[str, ...] = ()     # directors that end the clients' connections (a proxy control plane's)

    def vip_for(self, cell: SignalCell) -> str:
        """The VIP a cell connects to: its director variant's, or the main one."""
        return self.variant_vips[cell.director] if cell.director else self.vip

    def client_target(self, cell: SignalCell) -> tuple[str, int | None]:
        """(host, port) the cell's client connects to: its VIP (port None: the database's), or its pool on loopback."""
        if cell.pool:
            return "127.0.0.1", POOLS[cell.pool].port(self.scenario, cell)
        if cell.hosts:               # a multi-host client: each server by its own name, in order
            return ",".join(host_name(server) for server in cell.hosts), None
        return self.vip_for(cell), None

    @property
    def duration_s(self) -> float:
        s = self.scenario
        return s.warmup_s + sum(st.seconds for st in s.steps) + s.observe_s + self.answer_wait_s + LOAD_MARGIN_S


class BesideTheCells(Protocol):
    """A load's module that first_cell_load starts (load.connect's, the writer's)."""
    PROCESS: str
    STOPS_ON_EOF: bool

    def command(self, spec: Any, vip: str, port: int, duration_s: float, netns: str | None) -> list[str]: ...


def first_cell_load(plan: LoadPlan, spec: object, output: Path, program: BesideTheCells, port: int) -> Load:
    """A load that runs beside the cells, from the first cell's network namespace, through its
    VIP: program (a module with command(), PROCESS and STOPS_ON_EOF) given spec, the scenario's
    section for it."""
    first = plan.scenario.cells[0]
    container, netns = plan.placement(first.service)
    return Load(container, output, tuple(program.command(spec, plan.vip_for(first), port, plan.duration_s, netns)),
                program.PROCESS, stops_on_eof=program.STOPS_ON_EOF)


class ReadBackLab(RunsCommands, Protocol):
    """What a signal reads back from the lab once the loads stopped (lab/base.py's Lab gives it)."""

    def services(self) -> list[str]: ...

    @property
    def database(self) -> DatabaseEngine: ...


class Signal:
    name = ""
    files: dict[str, str] = {}
    section: ModuleType | None = None
    chart = ""
    lateness: ModuleType | None = None
    read_back_limit_s = 0.0

    @classmethod
    def file(cls, run: RunFiles, key: str, **names: str) -> Path:
        """The run's file of this signal named key (files), its {names} filled."""
        return run.file(cls.files[key].format(**names))

    def loads(self, plan: LoadPlan) -> list[Load]:
        return []

    def reads_back(self, scenario: SignalScenario) -> str:
        """What read_back reads for this scenario, in words for the run's cleanup ('': nothing)."""
        return ""

    def read_back(self, lab: ReadBackLab, run: RunFiles, scenario: SignalScenario) -> None:
        """Once the loads stopped: what the signal reads from the lab's nodes into its files."""

    def chart_module(self) -> ModuleType:
        """Its folder's chart.py, imported when asked (matplotlib is slow to load, and a run needs none of it)."""
        return importlib.import_module(f"{type(self).__module__}.chart")

    def draw_chart(self, run: RunFiles, scenario: SignalScenario, summary: RunSummary, path: Path) -> bool:
        """Its chart drawn to path; False when the run has nothing for it. scenario: the run's, as
        its directory recorded it."""
        return self.chart_module().draw(run, scenario, summary, path) is not False

    def summarize_cell(self, record: "CellRecord") -> Mapping[str, Any]:
        return {}

    def summarize_run(self, context: "RunContext") -> Mapping[str, Any] | None:
        return None


class RunContext:
    """What every cell's summary shares: the run's scenario, events, environment, first fault."""

    def __init__(self, run: RunFiles, scenario: SignalScenario) -> None:
        """scenario: the run's, as its directory recorded it (scenario.of_run)."""
        self.run = run
        self.scenario, self.events, self.env = scenario, run.events(), run.env()
        self.fault = first_fault(self.events, self.scenario)
        self.status = run_status(self.events)
        self.control: ControlPlane = control_plane(self.scenario.control, self.scenario.control_settings)
        if self.fault is not None:
            self.t_fault: float = self.fault["t"]
            self.effect = fault_effect(self.fault, self.scenario)
            heal = heal_of(self.events, self.fault)
            self.healed_after = heal["t"] - self.t_fault if heal else None
            self.observed_s = observed_until(self.events, self.fault)

    @property
    def first_fault(self) -> Event:
        """The event of the fault the run's times count from; a run without one has no cell to summarize."""
        if self.fault is None:
            raise ValueError("the run ran no fault step: nothing counts from one")
        return self.fault

    @functools.cached_property
    def changes(self) -> list[DirectorChange]:
        """When the control plane changed which director, read from the run's files."""
        return self.control.changes(self.run)

    def director_of(self, cell: SignalCell) -> str:
        """The director container a cell connects through."""
        return next(service for service, variant in self.control.directors().items() if variant == cell.director)

    def effect_on(self, cell: SignalCell) -> Effect:
        """What the cell's flows see: the fault's effect, as the control plane's reaction left it."""
        effect = self.effect
        if self.control.acts_by_itself:
            effect = self.control.effect_on(effect, self.director_of(cell), self.changes, self.t_fault)
        return effect_through_pool(cell, effect)

    @property
    def interval_s(self) -> float:
        return self.scenario.probe.interval_ms / 1000

    @property
    def lb(self) -> dict[str, Any]:
        return {"datapath": self.env.get("datapath"), **self.env.get("director", {})}

    @property
    def hz(self) -> int:
        return (self.env.get("where") or {}).get("hz") or kernel_model.HZ


class CellRecord:
    """One cell's files, read and parsed once, and its model window."""

    def __init__(self, context: RunContext, cell: SignalCell) -> None:
        self.context, self.cell = context, cell

    @functools.cached_property
    def probe_text(self) -> str:
        return self.context.run.read(self.context.run.probe_log(self.cell.name))

    @functools.cached_property
    def ops(self) -> list[probe_log.Record]:
        return probe_log.parse(self.probe_text)

    @functools.cached_property
    def outcome(self) -> recovery.Outcome:
        observed = None if self.idle else self.context.observed_s     # an idle cell stops on purpose
        return recovery.probe_outcome(self.ops, self.context.t_fault, observed)

    @functools.cached_property
    def idle(self) -> tuple[float, float | None] | None:
        """(start, end) of the probe's idle period on the lab clock, or None."""
        return probe_log.idle_period(self.probe_text)

    @functools.cached_property
    def idle_rel(self) -> Idle | None:
        """(start, end, its last operation's send) s after the fault, or None (predict's idle)."""
        idle, t_fault = self.idle, self.context.t_fault
        if not idle:
            return None
        sent = probe_log.last_send_before_idle(self.probe_text)
        return (idle[0] - t_fault, idle[1] - t_fault if idle[1] else None, None if sent is None else sent - t_fault)

    @functools.cached_property
    def caught_connection_samples(self) -> list[ss_log.SocketSample]:
        """ss's samples of the connection the fault caught; [] if none."""
        return caught_connection_samples(self.context.run, self.cell, self.probe_text, self.context.t_fault)

    @functools.cached_property
    def base_rto_s(self) -> float | None:
        """The base RTO the kernel used for the connection the fault caught (ss), or None."""
        return ss_log.base_rto_s(self.caught_connection_samples, self.context.t_fault)

    @functools.cached_property
    def window(self) -> Window:
        c = self.context
        return predict(self.cell, c.effect_on(self.cell), c.interval_s, c.first_fault["uncertainty_s"], c.healed_after,
                       self.idle_rel, self.base_rto_s, c.lb, c.hz)
