"""`make kernel-matrix scenario=ID KERNELS="host 6.1 6.12"`: the scenario run on each kernel (one
guest boot each), a baseline stored per kernel, and one page comparing them cell by cell. The next
kernel's guest boots while the previous run cleans up and reports: after its measurements, so the
boot never competes with them for the CPU."""
import contextlib
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from . import scenario, store
from .store import RunDir
from .measure import baseline
from .lab import engine_for, environment_from_os
from .measure import comparison
from .pipeline import run_and_report
from .report import comparison_page


def run(scenario_id: str, kernels: Sequence[str], project: str | None, overrides: Mapping[str, str] | None = None,
        out: IO[str] = sys.stdout) -> tuple[Path, dict[str, RunDir], list[Path]]:
    """Returns (the comparison page, {kernel spec: RunDir}, [baseline files]). overrides: make's
    (TCP_RETRIES2=5, ...), applied to the scenario on every kernel."""
    parsed, raw = scenario.load(scenario_id, overrides)
    if not isinstance(parsed, scenario.Scenario):
        raise scenario.ScenarioError(f"{scenario_id}: a kernel matrix compares failover scenarios only")
    runs, baselines = {}, []
    ahead = BootAhead(out)
    try:
        for index, spec in enumerate(kernels):
            out.write(f"kernel-matrix: {scenario_id} on {spec} ...\n")
            out.flush()
            following = kernels[index + 1] if index + 1 < len(kernels) else None
            with ahead.take(spec) as engine:
                runs[spec] = run_and_report(parsed, raw, project=project, lab_env=environment_from_os(),
                                            engine=engine, out=out, when_observed=lambda: ahead.boot(following))
            summary, env = runs[spec].summary_record(), runs[spec].env()
            path = baseline.file_for(scenario_id, summary.kernel)
            baseline.write(baseline.from_summary(summary, env, parsed.probe.interval_ms / 1000), path)
            baselines.append(path)
            out.write(f"kernel-matrix: {spec}: baseline {path}\n")
    finally:
        ahead.discard()
    entries = [(f"{spec} ({summary.kernel})", summary, r.env())
               for spec, r in runs.items() for summary in [r.summary_record()]]
    result = comparison.compare(entries, parsed.probe.interval_ms / 1000)
    directory = store.new_comparison_dir("kernel-matrix", scenario_id)
    page = comparison_page.render(directory, result, f"{scenario_id} across kernels: {', '.join(kernels)}")
    return page, runs, baselines


class BootAhead:
    """At most one guest booting ahead of the run that will use it. QEMU dies with the thread that
    started it (PR_SET_PDEATHSIG follows the thread, not the process: guest/qemu.py), so the thread
    that boots a guest lives on until the guest has been stopped."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.spec: str | None = None
        self.engine: Any = None                # a guest's engine (lab/guest/), booting or booted
        self.booted, self.stopped = threading.Event(), threading.Event()

    def boot(self, spec: str | None) -> None:
        if spec is None or spec == "host" or self.engine is not None:
            return
        self.spec, self.engine = spec, engine_for(spec, out=self.out, one_lab=True)
        self.booted, self.stopped = threading.Event(), threading.Event()
        threading.Thread(target=self._start, args=(self.engine, self.booted, self.stopped),
                         name=f"boot {spec}", daemon=True).start()

    @staticmethod
    def _start(engine: Any, booted: threading.Event, stopped: threading.Event) -> None:
        try:
            engine.ensure_started()
        except BaseException:
            pass          # a boot that failed is the taking run's to report: ensure_started says why again
        finally:
            booted.set()
        stopped.wait()

    @contextlib.contextmanager
    def take(self, spec: str) -> Iterator[Any]:
        """The engine for `spec`, stopped when the block ends: the one booted ahead for it (once its
        boot is over), or a new one."""
        if self.engine is None or self.spec != spec:
            self.discard()
            with engine_for(spec, out=self.out, one_lab=True) as engine:
                yield engine
            return
        self.booted.wait()
        engine, stopped = self.engine, self.stopped
        self.spec = self.engine = None
        try:
            with engine:
                yield engine
        finally:
            stopped.set()

    def discard(self) -> None:
        """Stop a guest booted ahead that no run took (the matrix failed or was interrupted)."""
        if self.engine is not None:
            if not self.booted.is_set():
                self.out.write(f"kernel-matrix: stopping the {self.spec} guest booted ahead, once its boot is over\n")
                self.out.flush()
            self.booted.wait()
            self.engine.stop()
            self.stopped.set()
        self.spec = self.engine = None
