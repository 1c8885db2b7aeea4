"""The client programs of a failover run: planned by the signals (harness/signals/), started in
the lab, their output demultiplexed into the run's files, and stopped."""
import collections
import dataclasses
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any

from ..lab.base import Lab
from ..load import probe, sysbench, wrk
from ..load.clients import DEFAULT_CLIENT
from ..scenario.model import Scenario
from ..signals.base import Load
from ..store import RunDir
from ..topology import DATABASE_REPLICAS

RECOVERY_GRACE_S = 0.2        # a run watches this long after the last cell is back (two probe intervals)
EOF_GRACE_S = 1.0            # a probe ends within an interval of its stdin closing, a sampler at once
VIP_NOT_TAKING_LIMIT_S = 120.0  # sysbench prepare asked again this long while the VIP takes no connection
PREPARE_AGAIN_S = 1.0


def start_before_servers_ready(scenario: Scenario) -> bool:
    """Whether the loads may start while the servers are still starting: only probes, which wait
    for their first answer (probe.FIRST_CONNECT_S); sysbench needs its tables, wrk and the zoo's
    programs count a refused connect as a failure, accounts of a cell's own are made first, and a
    pool's first server login, failed, is retried only after its server_login_retry."""
    s = scenario
    return (not s.sysbench and not s.wrk
            and all(c.client == DEFAULT_CLIENT and c.account == "shared" and not c.pool for c in s.cells))


def probes_before_servers_ready(scenario: Scenario, control_start_allowance_s: float = 0.0) -> bool:
    """Whether the lab's own probes may start while the servers are still starting, ahead of the
    loads that need them (sysbench's tables, a zoo client's first login): in a TCG guest a probe
    takes ~10 s to start, as long as a database server. Not when a cell has an account of its own,
    made once the servers answer, nor ahead of a control plane that may take minutes to program
    the VIP (kube-proxy in an emulated guest): the probes would spend the guest's CPU knocking,
    then give up."""
    return (not control_start_allowance_s
            and any(c.client == DEFAULT_CLIENT for c in scenario.cells)
            and all(c.account == "shared" and not c.pool for c in scenario.cells))


def early_probes(planned: Sequence[Load], armed: Sequence[str] = ()) -> tuple[list[Load], list[Load]]:
    """(the lab's own probe groups, the loads of the armed kinds (process patterns: loads that wait
    for a go of their own) and the gated clients; the other loads) of a run's planned loads."""
    early = (probe.PROCESS, *armed)
    first = [load for load in planned if load.process_pattern in early or load.gated]
    return first, [load for load in planned if not (load.process_pattern in early or load.gated)]


def other_sysbench_containers(scenario: Scenario, placement: Callable[[str], tuple[str, Any]]) -> list[str]:
    """A cell's service in each container, other than the first cell's (where sysbench prepare
    runs), in which a cell's sysbench runs: placement(service) -> (container service, netns)."""
    s = scenario
    first = placement(s.cells[0].service)[0]
    others: dict[str, str] = {}
    for cell in s.cells:
        container = placement(cell.service)[0]
        if s.runs_sysbench(cell) and container != first:
            others.setdefault(container, cell.service)
    return list(others.values())


def prepare_sysbench(lab: Lab, service: str, command: Sequence[str], attempt_limit_s: float, say: Callable[[str], None],
                     clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
    """sysbench prepare through the VIP, asked again while nothing takes its connection there. Healthy
    servers are not yet a VIP that answers: a cluster's kube-proxy programs a Service's endpoint at
    its next sync (~15 s apart on an emulated node), and until then the VIP refuses. Any other
    failure, or a VIP that still refuses after VIP_NOT_TAKING_LIMIT_S, ends the run with sysbench's
    own words."""
    deadline = clock() + VIP_NOT_TAKING_LIMIT_S
    told = False
    while True:
        result = lab.exec(service, command, check=False, timeout=attempt_limit_s)
        if not result.returncode:
            return
        if not sysbench.not_connected(result.stdout) or clock() >= deadline:
            raise result.failed(service, command)
        if not told:
            say(f"run: sysbench prepare: the VIP takes no connection yet; asking again every {PREPARE_AGAIN_S:g} s "
                f"for up to {VIP_NOT_TAKING_LIMIT_S:g} s")
            told = True
        sleep(PREPARE_AGAIN_S)


def needed_by_the_loads(services: Sequence[str]) -> list[str]:
    """Every node but the database's replicas: the loads write to the primary, and a replica,
    healthy once it replicates, is waited for beside the warm-up, before any fault."""
    return [service for service in services if service not in DATABASE_REPLICAS]


def watch_after_recovery_s(scenario: Scenario) -> float:
    """How long a run keeps watching after its last cell is back: a few probe intervals, or long
    enough for wrk (no cell) to report its own comeback."""
    return wrk.REPORTS_AFTER_S if scenario.wrk else RECOVERY_GRACE_S


@dataclasses.dataclass
class Started:
    load: Load
    process: subprocess.Popen
    files: dict[str | None, IO[Any]]      # cell (None: the load's one output) -> open file
    reader: threading.Thread | None = None   # a group's: its output into each cell's file
    stderr_tail: collections.deque = dataclasses.field(default_factory=lambda: collections.deque(maxlen=5))
    stderr_reader: threading.Thread | None = None


class RunningLoads:
    """Started loads: their processes (the lab's exec sessions) and open output files."""

    def __init__(self, lab: Lab, run: RunDir) -> None:
        self.lab, self.run = lab, run
        self.started: list[Started] = []
        self.stopped = threading.Event()     # set once stop() has ended every load it started

    def start(self, loads: Iterable[Load]) -> None:
        for load in loads:
            if not load.cells:
                if load.output is None:
                    raise ValueError(f"{load.service} {load.process_pattern}: a load of no group writes to a file")
                f = self.run.open(load.output)
                process = self.lab.spawn(load.service, list(load.command), stdout=f)
                self.started.append(Started(load, process, {None: f}))
                continue
            files: dict[str | None, IO[Any]] = {cell: self.run.open(output) for cell, output in load.cells}
            process = self.lab.spawn(load.service, list(load.command))
            _stdin(process).write(load.first_input)
            _stdin(process).flush()
            reader = threading.Thread(target=_demultiplex, args=(process.stdout, files), daemon=True,
                                      name=f"{load.service} {load.process_pattern}")
            reader.start()
            self.started.append(Started(load, process, files, reader))
        for started in self.started:
            if started.stderr_reader is not None:         # started by an earlier call
                continue
            started.stderr_reader = threading.Thread(target=_keep_tail, args=(started.process.stderr, started.stderr_tail),
                                                     daemon=True, name=f"{started.load.service} stderr")
            started.stderr_reader.start()

    def ended(self) -> list[str]:
        """What of the started loads has already exited, and its last words (before stop())."""
        gone = [s for s in self.started if s.process.poll() is not None]
        for s in gone:
            if s.stderr_reader is not None:
                s.stderr_reader.join(1.0)
        return [f"{s.load.service}: {s.load.process_pattern} exited {s.process.returncode}"
                + (f": {' / '.join(s.stderr_tail)}" if s.stderr_tail else "") for s in gone]

    def exited_cells(self) -> dict[str, tuple[str, str]]:
        """{cell: (what, how it ended)} of the cells whose client or sysbench has exited: nothing of
        theirs will come back, so a run does not wait for it (a sysbench that died of SIGSEGV)."""
        found: dict[str, tuple[str, str]] = {}
        for s in self.started:
            code = s.process.poll()
            if code is None or not s.load.watched_as:
                continue
            for cell in [tag for tag, _ in s.load.cells] or ([s.load.cell] if s.load.cell else []):
                found[cell] = (s.load.watched_as, f"exited {code}")
        return found

    def tell(self, cell: str, text: str) -> None:
        """Write a line to a cell's probe (probe.IDLE_COMMAND)."""
        for started in self.started:
            load = started.load
            if load.watched_as == "client" and (load.cell == cell or load.takes_commands and cell in started.files):
                _stdin(started.process).write(f"{cell}\t{text}" if load.takes_commands else text)
                _stdin(started.process).flush()

    def stop(self, timeout_s: float = 10) -> list[str]:
        """Close the stdin of those that end on it; after EOF_GRACE_S, signal (in their containers)
        the others and whatever of the first kind is still running (a probe waiting on the kernel
        does not read its stdin), all in one round of execs; after timeout_s in all, kill what is
        left (its exec session; the container goes down with the lab). Returns what had to be
        killed so, by service and process: a load its stop signal never reached, or one that does
        not end until an answer comes."""
        deadline, killed = time.monotonic() + timeout_s, []
        grace_ends = time.monotonic() + EOF_GRACE_S
        for started in self.started:
            if started.load.stops_on_eof:
                _stdin(started.process).close()
        self._signal([s.load for s in self.started if not s.load.stops_on_eof or not _ended(s.process, grace_ends)])
        for started in self.started:
            if not _ended(started.process, deadline):
                killed.append(f"{started.load.service}: {started.load.process_pattern}")
                started.process.kill()
                started.process.wait()
            if started.reader:
                started.reader.join(max(0.0, deadline - time.monotonic()))
            for f in started.files.values():
                f.close()
        self.started = []
        self.stopped.set()
        return killed

    def _signal(self, loads: Iterable[Load]) -> None:
        """One pkill per service, signal and program, however many cells run it there; side by side.
        (Cells that are namespaces of one container share its processes: a pkill for one of them
        reaches the others' too, which are being stopped with it.)"""
        asked = dict.fromkeys((load.service, load.stop_signal, load.process_pattern) for load in loads)
        self.lab.exec_each([(service, ["pkill", f"-{signal}", "-f", pattern]) for service, signal, pattern in asked],
                           check=False)


def _stdin(process: subprocess.Popen) -> IO[Any]:
    """The pipe to a load's stdin (Lab.spawn always opens one)."""
    if process.stdin is None:
        raise ValueError(f"{process.args!r}: started without a pipe to its stdin")
    return process.stdin


def _demultiplex(stream: Iterable[str], files: Mapping[str | None, IO[Any]]) -> None:
    """A group's output, each line into its tag's file (flushed: the live view reads them)."""
    for line in stream:
        tagged = probe.demultiplex(line)
        if tagged and tagged[0] in files:
            f = files[tagged[0]]
            f.write(tagged[1] + "\n")
            f.flush()


def _keep_tail(stream: Iterable[str], tail: collections.deque[str]) -> None:
    """Read a load's stderr as it comes (a full pipe would stop it), keeping its last lines."""
    for line in stream:
        if line.strip():
            tail.append(line.strip()[:300])


def _ended(process: subprocess.Popen, by: float) -> bool:
    try:
        process.wait(timeout=max(0.0, by - time.monotonic()))
        return True
    except subprocess.TimeoutExpired:
        return False
