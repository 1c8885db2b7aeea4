"""The terminal view while a run goes: a line per client per second, events called out as soon as
they are seen (the run polls several times a second)."""
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

from ..measure import probe_log, recovery, sysbench_log
from ..measure.effects import Effect
from ..scenario.model import Scenario
from ..store import RunDir


class Tail:
    """The new complete lines of a growing file."""

    def __init__(self, path: Path) -> None:
        self.path, self.offset, self.partial = path, 0, ""

    def lines(self) -> list[str]:
        try:
            with open(self.path) as f:
                f.seek(self.offset)
                data = f.read()
                self.offset = f.tell()
        except FileNotFoundError:
            return []
        *complete, self.partial = (self.partial + data).split("\n")
        return complete


class CellView:
    def __init__(self, name: str, probe_path: Path, sysbench_path: Path | None, may_never_work: bool = False,
                 waited_for: bool = True) -> None:
        """may_never_work: its client may be refused from the start (an account nobody logged in
        with): an answer of any kind then lets the warm-up start, and a refusal is its outcome.
        waited_for=False: the observation does not wait for it to come back (the scenario's cell)."""
        self.name, self.may_never_work, self.waited_for = name, may_never_work, waited_for
        self.probe_tail, self.sysbench_tail = Tail(probe_path), Tail(sysbench_path) if sysbench_path else None
        self.operations: list[probe_log.Record] = []
        self.reports: list[sysbench_log.Report] = []
        self.local_ports: list[int] = []
        self.gone: dict[str, str] = {}                   # 'client' or 'sysbench' -> how it ended, once it did
        self.outcome: recovery.Outcome | None = None     # since the fault, as of the last poll
        self.sysbench_outcome: recovery.SysbenchOutcome | None = None
        self.announced_detect = self.announced_recover = False

    def poll(self, t_fault: float | None) -> None:
        """Read what the clients wrote since the last poll; with a fault, work out where they stand."""
        text = "\n".join(self.probe_tail.lines())
        new = probe_log.parse(text)
        self.operations += new
        self.local_ports += probe_log.local_ports(text)
        reports = sysbench_log.parse("\n".join(self.sysbench_tail.lines())) if self.sysbench_tail else []
        self.reports += reports
        # what the view uses of an outcome (first error, recovery) is settled once recovered
        if t_fault is not None and (new or reports or self.outcome is None) and not self.recovered():
            self.outcome = recovery.probe_outcome(self.operations, t_fault)
            if self.sysbench_tail:
                self.sysbench_outcome = recovery.sysbench_outcome(self.reports, t_fault)

    def ready(self) -> bool:
        """Its probe has completed an operation, and its sysbench (if any) reported once."""
        answered = any(op["ok"] or self.may_never_work for op in self.operations)
        return answered and (self.sysbench_tail is None or bool(self.reports))

    def recovered(self) -> bool:
        """The probe came back, and so did sysbench if it was disrupted at all; one that has exited
        will not, and is not waited for."""
        sb = self.sysbench_outcome
        back = "client" in self.gone or \
            self.outcome is not None and (self.outcome.recover_s is not None or bool(self.outcome.never_worked))
        return back and (sb is None or not sb.disrupted or sb.recover_s is not None or "sysbench" in self.gone)

    def line(self, now: float) -> str:
        recent = [op for op in self.operations if now - 1 < op["t1"] <= now]
        ok = sum(1 for op in recent if op["ok"])
        text = f"probe {ok:3d} ok {len(recent) - ok:2d} err"
        if self.sysbench_tail:
            last = self.reports[-1] if self.reports and now - self.reports[-1].t < 1.5 else None
            text = (f"tps {last.tps:7.1f} err/s {last.err_per_s:4.1f} reconn/s {last.reconn_per_s:4.1f} | "
                    if last else "tps       – err/s    – reconn/s    – | ") + text
        return text


class LiveView:
    def __init__(self, cells: Sequence[CellView], out: IO[str] = sys.stdout, clock: Callable[[], float] = time.time) -> None:
        """clock: the lab's clock, the one the clients stamp their records with."""
        self.cells, self.out, self.clock = cells, out, clock
        self.started = clock()
        self.t_fault: float | None = None
        self.limit_at: float | None = None
        self.shown_second: int | None = None

    def _stamp(self, now: float) -> str:
        return f"[{now - self.started:5.0f}s]"

    def note(self, text: str, now: float | None = None) -> None:
        now = now or self.clock()
        self.out.write(f"{self._stamp(now)} >>> {text}\n")
        self.out.flush()

    def fault_started(self, t_fault: float, observe_s: float, effect: Effect | None = None) -> None:
        """effect: what the first fault does to existing flows (a narrated view says so)."""
        self.t_fault, self.limit_at = t_fault, t_fault + observe_s

    def tick(self, now: float) -> None:
        """Read what the clients wrote and call out what changed; the lines at most once a second."""
        self.poll()
        if self.t_fault:
            self._announce(now)
        second = int(now - self.started)
        if second != self.shown_second:
            self.shown_second = second
            self.show(now)
        self.out.flush()

    def poll(self) -> None:
        for cell in self.cells:
            cell.poll(self.t_fault)

    def loads_ended(self, exited: Mapping[str, tuple[str, str]], now: float | None = None) -> None:
        """exited: {cell: (what, how)}: each newly ended one called out once and no longer waited for."""
        for cell in self.cells:
            for what, how in [exited[cell.name]] if cell.name in exited else []:
                if what not in cell.gone:
                    cell.gone[what] = how
                    self.note(f"{cell.name}: its {what} {how}: not waited for", now)

    def show(self, now: float) -> None:
        width = max(len(c.name) for c in self.cells)
        countdown = f" | limit in {self.limit_at - now:4.0f}s" if self.limit_at else ""
        for cell in self.cells:
            self.out.write(f"{self._stamp(now)} {cell.name:<{width}}  {cell.line(now)}{countdown}\n")

    def _announce(self, now: float) -> None:
        for cell in self.cells:
            outcome = cell.outcome
            if outcome is None:             # not polled since the fault yet
                continue
            if outcome.never_worked and not cell.announced_detect:
                cell.announced_detect = cell.announced_recover = True
                self.note(f"{cell.name}: never worked: {outcome.never_worked}", now)
            if outcome.detect_s is not None and not cell.announced_detect:
                cell.announced_detect = True
                self.note(f"{cell.name}: first error {outcome.error} {outcome.detect_s:.2f} s after the fault", now)
            if outcome.detect_s is None and outcome.disrupted and not cell.announced_detect:
                cell.announced_detect = True
                self.note(f"{cell.name}: stalled {outcome.stall_s:.2f} s without an error", now)
            if outcome.recover_s is not None and not cell.announced_recover:
                cell.announced_recover = True
                self.note(f"{cell.name}: recovered {outcome.recover_s:.2f} s after the fault "
                          f"(now on {outcome.server_after})", now)

    def waiting_for(self) -> list[str]:
        """The cells that have not proven their path yet (before the warm-up starts)."""
        return [c.name for c in self.cells if not c.ready()]

    def all_recovered(self) -> bool:
        """Every cell the run waits for is back (none waited for: never, the limit ends the run)."""
        waited = [c for c in self.cells if c.waited_for]
        return self.t_fault is not None and bool(waited) and all(c.recovered() for c in waited)


# view(cells, scenario, run, out, clock): what makes a run's live view (FailoverRun's `view`)
MakesTheView = Callable[[Sequence[CellView], Scenario, RunDir, IO[str], Callable[[], float]], LiveView]


def plain_view(cells: Sequence[CellView], scenario: Scenario, run: RunDir, out: IO[str],
               clock: Callable[[], float]) -> LiveView:
    return LiveView(cells, out=out, clock=clock)
