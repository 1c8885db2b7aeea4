"""The live view of a workshop run (make exercise): fewer lines, and words. Before the fault a
line every few seconds; after it, every two seconds a block saying where each client's kernel
stands (harness/workshop/narration.py), read from the cells' live ss samples."""
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

from ..measure import ss_log
from ..measure.effects import Effect
from ..measure.predict import Window, predict
from ..scenario.model import Cell, Scenario
from ..store import RunDir
from ..run.live import CellView, LiveView, Tail
from . import narration

WARMUP_EVERY_S = 5
BLOCK_EVERY_S = 2
BLOCK_MAX_CLIENTS = 10       # a block of more would scroll off a 24-row terminal


def narrated_view(cells: Sequence[CellView], scenario: Scenario, run: RunDir, out: IO[str],
                  clock: Callable[[], float]) -> "NarratedView":
    """The view factory a FailoverRun takes (run/failover.py) for a narrated run."""
    ss_paths = {c.namespace: run.ss_samples(c.namespace) for c in scenario.cells}
    return NarratedView(cells, scenario.cells, ss_paths, scenario.probe.interval_ms / 1000, out=out, clock=clock)


class NarratedView(LiveView):
    def __init__(self, cells: Sequence[CellView], scenario_cells: Sequence[Cell], ss_paths: Mapping[str, Path],
                 interval_s: float, out: IO[str], clock: Callable[[], float]) -> None:
        """cells: CellView per scenario cell, in the same order; ss_paths: {namespace: ss samples file}."""
        super().__init__(cells, out=out, clock=clock)
        self.scenario_cells = dict(zip((c.name for c in cells), scenario_cells))
        self.ss_tails = {namespace: Tail(path) for namespace, path in ss_paths.items()}
        self.last_sample: dict[tuple[str, int], ss_log.SocketSample] = {}   # (namespace, local port) -> the newest
        self.first_rto_t: dict[tuple[str, int], float] = {}           # (namespace, local port) -> when a retransmission first showed
        self.interval_s = interval_s
        self.windows: dict[str, Window] = {}
        self.ticks = 0

    def fault_started(self, t_fault: float, observe_s: float, effect: Effect | None = None) -> None:
        super().fault_started(t_fault, observe_s, effect)
        if effect is not None:
            self.windows = {name: predict(cell, effect, self.interval_s, 0.0)
                            for name, cell in self.scenario_cells.items()}
            self.note(narration.fault_said(effect), t_fault)

    def note(self, text: str, now: float | None = None) -> None:
        """Wrapped to the terminal's 80 columns, continuation lines indented."""
        now = now or self.clock()
        lines = textwrap.wrap(f"{self._stamp(now)} >>> {text}", narration.WIDTH, subsequent_indent=" " * 12)
        self.out.write("\n".join(lines) + "\n")
        self.out.flush()

    def _read_samples(self) -> None:
        for namespace, tail in self.ss_tails.items():
            for sample in ss_log.parse("\n".join(tail.lines())):
                key = (namespace, sample.local_port)
                self.last_sample[key] = sample
                state = narration.timer(sample)
                if self.t_fault is not None and sample.t > self.t_fault and state and state[0] == "on" and state[2] >= 1:
                    self.first_rto_t.setdefault(key, sample.t)

    def poll(self) -> None:
        super().poll()
        self._read_samples()

    def show(self, now: float) -> None:
        self.ticks += 1
        if self.t_fault is None:
            if self.ticks % WARMUP_EVERY_S == 0:
                answering = sum(1 for c in self.cells if c.ready())
                self.out.write(f"{self._stamp(now)} {answering} of {len(self.cells)} clients answering\n")
        elif self.ticks % BLOCK_EVERY_S == 0:
            self._block(now)

    def _block(self, now: float) -> None:
        """A line per client; with more clients than fit a 24-row screen, the ones back at work
        are counted in one line and only those still waiting get a line each."""
        t_fault, limit_at = self.t_fault, self.limit_at
        if t_fault is None or limit_at is None:          # shown only once the fault started
            return
        width = min(16, max(len(c.name) for c in self.cells))
        self.out.write(f"{self._stamp(now)} {now - t_fault:.0f} s after the fault "
                       f"(the run stops watching in {max(0.0, limit_at - now):.0f} s)\n")
        shown = self.cells
        if len(self.cells) > BLOCK_MAX_CLIENTS:
            shown = [v for v in self.cells if not (v.outcome and v.outcome.recover_s is not None)]
            self.out.write(f"  {len(self.cells) - len(shown)} of {len(self.cells)} clients back at work\n")
        for view in shown[:BLOCK_MAX_CLIENTS]:
            cell = self.scenario_cells[view.name]
            key = (cell.namespace, view.local_ports[0]) if view.local_ports else None
            self.out.write(narration.cell_line(view.name, width, now, t_fault, view.outcome,
                                               self.windows.get(view.name), narration.kernel_plan(cell),
                                               self.last_sample.get(key) if key else None, cell.read_timeout_s,
                                               self.first_rto_t.get(key) if key else None) + "\n")
        if len(shown) > BLOCK_MAX_CLIENTS:
            self.out.write(f"  … and {len(shown) - BLOCK_MAX_CLIENTS} more still waiting\n")
