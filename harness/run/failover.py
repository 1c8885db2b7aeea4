"""One failover run, on one timeline (the host's wall clock, which containers share).

  lab up -> (sysbench prepare) -> loads start -> every client answered -> warm-up -> steps
  (faults, waits, heals) -> observe until every cell recovered or the limit -> faults undone,
  loads stopped and evidence collected, lab down and the timeline merged (always: also on error
  and Ctrl-C), the report drawn as soon as the timeline is merged, beside the lab's taking down. The lab's probes start as soon as the containers run (they wait for the servers'
  first answer), the other loads once the nodes they write to pass their checks; meanwhile the
  replica's check (it passes once replicating) and env.json, done before any fault.
The run returns its directory; reports are drawn from it afterwards (harness/report/).
"""
import functools
import json
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

from ..abilities import KeepsEvidenceOfItsPlace
from ..control.abilities import client_address
from ..director import Director
from ..load import probe, sysbench
from ..scenario.model import Scenario
from ..signals.base import Load, LoadPlan, Signal
from ..signals.combined import planned_loads
from ..signals.registry import SIGNALS
from ..store import RunDir
from ..topology import DIRECTOR
from . import environment, evidence, loads
from .accounts import create_accounts
from .background import Background
from .base import RunBase
from .lab_watch import LabWatch
from .phases import KEEP_EVIDENCE, READ_BACK, TAKE_DOWN, UNDO_FAULTS, Undo
from .steps import Steps
from .watching import WatchesTheClients
from .live import CellView, MakesTheView, plain_view

STOP_CLIENTS_LIMIT_S = 90      # the clients' stop, bounded (then left to run on in its thread)
READ_BACK_WAIT_S = 120.0       # how long a signal's read-back waits for the loads' stop to end
UNDO_FAULTS_LIMIT_S = 60
KEEP_PLACE_EVIDENCE_LIMIT_S = 30
KEEP_TABLE_LIMIT_S = 90
KEEP_LOGS_LIMIT_S = 90
LAB_DOWN_LIMIT_S = 150
MERGE_LIMIT_S = 60
REPORT_LIMIT_S = 300           # a report of a 15-minute run of 20 cells: seconds; bounded all the same
READY_LIMIT_S = 480.0         # every client must have answered by then (12 cells in a 6.1 TCG guest: 238 s)
PREPARE_LIMIT_S = 300          # sysbench prepare: its tables made
BACKGROUND_STOP_LIMIT_S = KEEP_TABLE_LIMIT_S   # its longest task: the director's table, once 60 s on a busy machine


class FailoverRun(WatchesTheClients, RunBase[Scenario]):
    steps: Steps                      # made by execute(), before anything runs
    director: Director                # the lab's director, once the lab is up
    client_gate: tuple[str, float] | None = None       # (file, limit_s) the zoo's clients started ahead wait for, or none
    def __init__(self, *args: Any, view: MakesTheView | None = None, pause: Callable[[str], object] | None = None,
                 when_observed: Callable[[], object] | None = None, report: Callable[[RunDir], object] | None = None,
                 **kwargs: Any) -> None:
        """view: makes the live view, view(cells, scenario, run, out, clock) (the workshop's narrated
        one, say; default: run/live.py's); pause: called with each fault step's description before
        it is injected (e.g. to wait for Enter in a live demo); when_observed: called once the run
        has observed all it measures, before its cleanup (a kernel matrix boots its next guest);
        report: called with the run's directory once its timeline is merged, while the lab is taken
        down beside it (the pipeline draws the run's report then)."""
        super().__init__(*args, **kwargs)
        self.make_view, self.pause, self.when_observed = view or plain_view, pause, when_observed
        self.report = report
        self.env_recorded: Future[Any] | None = None   # env.json's contents, once the director is ready
        self.loads_gone: set[tuple[str, str]] = set()   # (cell, 'client' or 'sysbench') that exited after the fault
        self.lab_watch = None             # once the lab is up
        self.control_before = None        # the control plane's progress() before the steps
        self.control_caught_up_at = None  # when it was seen to have acted on them (lab clock)
        self.control_checked = 0.0
        self.background = Background("run-background")

    @property
    def ready_limit_s(self) -> float:
        """How long the servers and the clients may take to be ready: the lab's own limit, and what
        its control plane's services need besides (an API server in an emulated guest)."""
        return READY_LIMIT_S + self.control.start_allowance_s

    def execute(self) -> RunDir:
        self.open_run()
        s = self.scenario
        cells = [CellView(c.name, self.run_dir.probe_log(c.name), self.run_dir.sysbench_log(c.name) if s.runs_sysbench(c) else None,
                          may_never_work=c.account == "cold", waited_for=c.waited_for) for c in s.cells]
        self.view = self.make_view(cells, s, self.run_dir, self.out, self.lab.now)
        self.steps = Steps(self.lab, self.event_log, self.view, self._watch, self._follow, s.observe_s, self.pause)
        return self.run_then_clean_up(self._run, self._stop_watching)

    def _run(self) -> None:
        early, probes_first = self._bring_up()
        if self.lab.costly_execs:
            self._record_environment(early or probes_first)
        first, rest, gate, vip = self._planned(early, probes_first)
        self._start_clients(first, rest, gate, vip)
        env, flows_kept = self._until_every_cell_answers(early, bool(first))
        self._warm_up(env, flows_kept)
        self._steps_then_observe()

    def _bring_up(self) -> tuple[bool, bool]:
        """The lab up, and what the run undoes on its way out; (early, probes_first): may the loads,
        or the lab's own probes, start before the servers are ready."""
        s = self.scenario
        kept = self.keep_lab and self.lab.can_be_kept      # a guest goes, and its lab with it
        keeper, guest_dir = self.lab, self.run_dir.guest_dir
        self.phases.enter(
            "bringing the lab up",
            *([Undo(f"keeping {keeper.keeps}", lambda: keeper.keep_evidence(guest_dir),
                    KEEP_PLACE_EVIDENCE_LIMIT_S, KEEP_EVIDENCE)] if isinstance(keeper, KeepsEvidenceOfItsPlace) else []),
            Undo("keeping the lab up", self._keep_unless_ended_early, LAB_DOWN_LIMIT_S, TAKE_DOWN) if kept
            else Undo("taking the lab down", self._down, LAB_DOWN_LIMIT_S, TAKE_DOWN),
            Undo("merging the timeline" + (", then the report" if self.report else ""), self._merge_then_report,
                 MERGE_LIMIT_S + (REPORT_LIMIT_S if self.report else 0), TAKE_DOWN))
        namespaces = len({c.namespace for c in s.cells})
        where = (f"{namespaces} network namespace(s) of one client container" if s.cell_namespaces == "netns"
                 else f"{namespaces} client container(s)")
        self.say(f"run: bringing the lab up ({len(s.cells)} client cell(s) in {where}) ...")
        self.event_log.add("lab_starting")
        early = loads.start_before_servers_ready(s)
        probes_first = loads.probes_before_servers_ready(s, self.control.start_allowance_s)
        self.lab.up(wait=not probes_first, preflight=self.refuse_what_the_kernel_lacks,
                    timeout_s=int(180 + self.control.start_allowance_s))
        self.director = self.lab.director()
        self.phases.undo_later(
            Undo("keeping the director's table", lambda: self._snapshot_directors("end"),
                 KEEP_TABLE_LIMIT_S, KEEP_EVIDENCE),
            Undo("keeping the logs", lambda: evidence.collect_logs(self.run_dir, self.lab), KEEP_LOGS_LIMIT_S, KEEP_EVIDENCE))
        self.phases.undo_later(Undo("stopping the run's background work",
                                    lambda: self.background.stop(BACKGROUND_STOP_LIMIT_S),
                                    BACKGROUND_STOP_LIMIT_S + 10, TAKE_DOWN))
        self.lab_watch = LabWatch(self.lab, self.run_dir.path, self.steps.stopped)
        self.event_log.add("lab_up", datapath=self.lab.datapath, servers_ready=not probes_first)
        self.loads = loads.RunningLoads(self.lab, self.run_dir)
        # a machine that stood still 36 s once held its pkills past a 30 s limit
        self.phases.undo_later(Undo("stopping the clients", self._stop_loads, STOP_CLIENTS_LIMIT_S, KEEP_EVIDENCE))
        for signal in SIGNALS.members():          # once the loads have stopped
            if what := signal.reads_back(s):
                self.phases.undo_later(Undo(f"reading {what}", functools.partial(self._read_back, signal),
                                            READ_BACK_WAIT_S + signal.read_back_limit_s + 30, READ_BACK))
        return early, probes_first

    def _planned(self, early: bool, probes_first: bool) -> tuple[list[Load], list[Load], tuple[str, float] | None, str]:
        """(the loads started ahead of the servers' readiness, the others, sysbench's gate or None, the VIP)."""
        s = self.scenario
        vip = client_address(self.control, self.director.vip_address())     # a name, under the dns plane
        variant_vips = {variant: self.lab.director(service).vip_address()
                        for service, variant in self.control.directors().items() if variant}
        sampled = tuple(dict.fromkeys([*self.control.sampled_directors(self.lab.datapath),
                                       *self.lab.directors_programmed_by_themselves()]))
        # With the probes started ahead, sysbench starts beside them and waits for its tables (a gate file).
        gate_limit_s = self.ready_limit_s + loads.VIP_NOT_TAKING_LIMIT_S + PREPARE_LIMIT_S
        gate = (f"/tmp/blackhole-sysbench-go-{self.run_dir.path.name}", gate_limit_s) \
            if probes_first and not early and s.sysbench else None
        # The JVMs start with the probes and wait, started up, for the accounts: a gate of their own.
        self.client_gate = (f"/tmp/blackhole-clients-go-{self.run_dir.path.name}", gate_limit_s) \
            if probes_first and not early else None
        planned = planned_loads(LoadPlan(s, self.run_dir, vip, self.lab.datapath, self.lab.placement, variant_vips,
                                         sampled, self.control.table_sample(self.lab.datapath),
                                         self.control.shares_vip, answer_wait_s=self.ready_limit_s,
                                         sysbench_gate=gate or (), proxy_directors=self.control.proxied_directors(),
                                         client_gate=self.client_gate or ()))
        first, rest = (loads.early_probes(planned, armed=(sysbench.PROCESS,)) if probes_first and not early
                       else ([], planned))
        return first, rest, gate, vip

    def _start_clients(self, first: Sequence[Load], rest: Sequence[Load], gate: tuple[str, float] | None, vip: str) -> None:
        s = self.scenario
        if first:             # they wait for the servers' first answer; the rest need what they write to
            self.phases.enter("starting the clients")
            self.loads.start(first)
            self.lab.wait_healthy(self.ready_limit_s, only=loads.needed_by_the_loads(self.lab.services()))
        if s.sysbench:
            self.say("run: sysbench prepare ...")
            gate_file = gate[0] if gate is not None else None
            loads.prepare_sysbench(self.lab, s.cells[0].service,
                                   sysbench.prepare_command(s.sysbench, vip, opens_gate=gate_file),
                                   PREPARE_LIMIT_S, self.say)
            if gate_file is not None:
                for service in loads.other_sysbench_containers(s, self.lab.placement):
                    self.lab.exec(service, ["touch", gate_file])
        create_accounts(self.lab, self.scenario.cells, self.say, self.event_log)
        for service in dict.fromkeys(load.service for load in first if load.gated):
            if self.client_gate is None:
                raise ValueError(f"{service}: a client planned to wait for a gate the run did not make")
            self.lab.exec(service, ["touch", self.client_gate[0]])
        self.phases.enter("starting the clients")
        self.loads.start(rest)
        self.event_log.add("load_start", cells=[c.name for c in s.cells])

    def _until_every_cell_answers(self, early: bool, started_ahead: bool) -> tuple[Future[Any], Future[Any]]:
        """In the background, done before any fault: the servers' health checks (when the clients
        started alongside them); once every client answers, the director's table of their flows
        and, where execs are cheap, env.json (on this host its ten-odd execs beside the clients'
        start cost them more than the warm-up gains: bench-matrix, 2026-12-02). Returns the futures
        of env.json's contents and of the table."""
        self.servers_ready = self.background.submit("waiting for the servers' health checks", self._servers_ready,
                                                    early or started_ahead)
        self._wait_until_every_cell_answers()
        self.event_log.add("loads_ready")
        env = self.env_recorded or self._record_environment(early)
        return env, self.background.submit("keeping the director's table before the fault", evidence.snapshot_flows,
                                      self.run_dir, self.director, "before-fault")

    def _warm_up(self, env: Future[Any], flows_kept: Future[Any]) -> None:
        s = self.scenario
        self.view.note(f"every client answers; warm-up {s.warmup_s:g} s")
        self.phases.enter("warming up")
        warm_until = self.lab.now() + s.warmup_s
        idle_cells = [c.name for c in s.cells if c.idle_s]
        if idle_cells:
            self._watch(warm_until - probe.IDLE_LEAD_S)
            for name in idle_cells:
                self.loads.tell(name, probe.IDLE_COMMAND)
            self.view.note(f"{', '.join(idle_cells)}: idle from now")
        self._watch(warm_until)
        self.servers_ready.result(timeout=self.ready_limit_s)
        self._write_env(env.result(timeout=self.ready_limit_s))
        flows_kept.result(timeout=self.ready_limit_s)

    def _snapshot_directors(self, label: str) -> None:
        peers = [service for service, variant in self.control.directors().items() if variant is None and service != DIRECTOR]
        evidence.snapshot_directors(self.run_dir, self.lab, self.director, peers, label)

    def _steps_then_observe(self) -> None:
        self.control_before = self.control.progress(self.lab)
        self.phases.enter("running the steps", Undo("undoing faults", self.steps.undo, UNDO_FAULTS_LIMIT_S, UNDO_FAULTS))
        for index, step in enumerate(self.scenario.steps):
            self.steps.take(index, step)
        self._beside_the_view(lambda: self._snapshot_directors("after-steps"), "after-steps")
        self.phases.enter("observing")
        if self.view.limit_at is None:          # the parser refuses a scenario without a fault step
            raise ValueError("the steps injected no fault: nothing to observe")
        self._watch(self.view.limit_at, stop_when_recovered=True)
        self.event_log.add("observe_end", all_recovered=self.view.all_recovered(),
                        control_caught_up=self.control_caught_up_at is not None or self.control_before is None)
        if self.when_observed:
            self.when_observed()

    def _servers_ready(self, wait_for_servers: bool) -> None:
        if wait_for_servers:
            self.lab.wait_healthy(self.ready_limit_s, stopping=self.background.stopping)
            self.event_log.add("servers_ready")

    def _record_environment(self, director_may_be_starting: bool) -> Future[Any]:
        """env.json's contents, collected in the background: where execs cost seconds (a guest), from
        the lab's start, while the clients start (director-failover in a 6.12 guest, 2026-12-04:
        33.4 s collected under the clients' load, the fault 54.6 s after the lab was up; 12.4 s
        from the lab's start, the fault 27.1 s after it); elsewhere once every client answers."""
        self.env_recorded = self.background.submit("recording env.json", self._environment, director_may_be_starting)
        return self.env_recorded

    def _environment(self, director_may_be_starting: bool) -> dict[str, Any]:
        def director_ready() -> None:
            if director_may_be_starting:
                self.lab.wait_healthy(self.ready_limit_s, only=(DIRECTOR,), stopping=self.background.stopping)
        return environment.collect(self.lab, self.director, self.scenario, self.control, director_ready)

    def _write_env(self, env: dict[str, Any]) -> None:
        self.run_dir.env_file.write_text(json.dumps(env, indent=1) + "\n")
        self.event_log.add("env_recorded")
        self.view.note(f"kernel {env['kernel']}, datapath {env['datapath']}")

    def _stop_watching(self) -> None:
        self.background.stopping.set()
        if self.lab_watch:
            self.lab_watch.close()

    def _stop_loads(self) -> None:
        """A load still running when the stop's time was up was killed: said in the timeline, by name."""
        if killed := self.loads.stop():
            self.event_log.add("loads_killed", loads=killed)

    def _read_back(self, signal: Signal) -> None:
        """Once the loads have stopped: a ledger read while the writer still wrote (its stop overran on
        a busy machine) held a row the writer had not recorded yet."""
        if not self.loads.stopped.wait(READ_BACK_WAIT_S):
            self.event_log.add("read_back_while_loads_ran", signal=signal.name)
        signal.read_back(self.lab, self.run_dir, self.scenario)

    def _merge_then_report(self) -> None:
        evidence.merge_client_events(self.event_log, self.run_dir, self.scenario.cells)
        if self.report:
            self.report(self.run_dir)

    def _down(self) -> None:
        self.lab.down()
        self.event_log.add("lab_down")

    def _keep_unless_ended_early(self) -> None:
        """A lab is kept to look into after a run; one interrupted or failed on the way goes, as any
        run's would (a write-loss test stopped by Ctrl-C left its kept lab up)."""
        if self.ended_early:
            self.say("run: taking the lab down after all: KEEP_LAB keeps the lab of a run that ended, not of "
                     "one stopped on the way")
            self._down()
            return
        self.event_log.add("lab_kept", project=self.lab.project)
        self.say(f"run: lab kept up: project {self.lab.project} (make down LAB_PROJECT={self.lab.project}, "
                 "or make clean, removes it)")
