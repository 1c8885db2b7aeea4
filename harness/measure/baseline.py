"""Regression baselines: a run's per-cell results kept in baselines/, compared cell by cell.

Tolerance is per cell, from the model: half the width of the cell's model window (the
spread the kernel itself allows, timer slack included; the wider of the baseline's and this
run's, as a loaded machine's RTT can make a cell borderline) plus one probe interval and
50 ms of scheduling, at least 0.25 s. A cell further than that from its baseline still passes
when this run's model window holds both values: at this run's measured RTO the kernel itself
allows either (a borderline tcp_retries2=3 ends at ~3.5 s or ~6.7 s, whichever RTO firing meets
its budget first; the window spans both). A cell that never errored must stay that way.

The kernel's retransmission ladder is a sum of doublings of the base RTO it measured for the
socket (the model's "base RTO N ms (measured)"), and a busy machine's RTT lengthens it: at 212 ms
instead of 204 ms a tcp_retries2=5 cell ends ~0.5 s later. Where only that measurement differs
between the baseline's model and this run's, the shift the model computes from it is taken off
the delta before it is held to the tolerance, and shown beside it.
"""
from __future__ import annotations

import dataclasses
import datetime
import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol
from xml.sax.saxutils import escape, quoteattr

from .summary_error import SummaryError
from .summary_record import RunSummary, Window
from .verdict import UNKNOWN

BASELINES = Path(__file__).resolve().parent.parent.parent / "baselines"
MIN_TOLERANCE_S = 0.25


class CheckedRun(Protocol):
    """What check() reads and writes of a run's directory (store.RunDir)."""
    @property
    def path(self) -> Path: ...

    @property
    def baseline_junit(self) -> Path: ...

    def summary_record(self) -> RunSummary: ...


def file_for(scenario_id: str, kernel: str | None) -> Path:
    """baselines/<scenario>-<kernel release>.json"""
    return BASELINES / f"{scenario_id}-{kernel}.json"


def series(release: str) -> str:
    """The kernel's major.minor ('6.12' of '6.12.117+deb12-amd64'): like is compared with like."""
    return ".".join(release.split(".")[:2])


def available(scenario_id: str) -> list[Path]:
    return sorted(BASELINES.glob(f"{scenario_id}-*.json"))


def find(scenario_id: str, kernel: str) -> Path | None:
    """The baseline of this kernel release, else the newest of the same series (6.12.x for a
    6.12 kernel: another build of it); None if the series has none."""
    own = file_for(scenario_id, kernel)
    if own.exists():
        return own
    same_series = sorted(BASELINES.glob(f"{scenario_id}-{series(kernel)}.*.json"), key=lambda p: p.stat().st_mtime,
                         reverse=True)
    return same_series[0] if same_series else None


def from_summary(summary: RunSummary, env: Mapping[str, Any], interval_s: float) -> dict[str, Any]:
    """A baseline file's content: each cell's outcome and model window in the run."""
    return {
        "scenario": summary.scenario,
        "kernel": summary.kernel,
        "created_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "source_run": summary.run,
        "probe_interval_s": interval_s,
        "environment": {"datapath": env.get("datapath"), "versions": env.get("versions", {}),
                        "namespaces": env.get("namespaces", {}),
                        **({"kernel_facts": env["kernel_facts"]} if env.get("kernel_facts") else {})},
        "cells": {c.name: {"detect_s": c.probe.detect_s, "recover_s": c.probe.recover_s, "error": c.probe.error,
                           "knobs": dict(c.knobs), "model": c.predicted.as_json()} for c in summary.cells},
    }


@dataclasses.dataclass(frozen=True)
class BaselineCell:
    """A cell as a baseline file keeps it."""
    name: str
    detect_s: float | None
    model: Window | None            # None in a baseline written before models were kept

    @classmethod
    def read(cls, name: str, part: Mapping[str, Any]) -> BaselineCell:
        if "detect_s" not in part:
            raise SummaryError(f"baseline: cell {name!r} has no 'detect_s'")
        model = part.get("model")
        return cls(name, part["detect_s"], Window.read(model, f"baseline cell {name!r}'s model") if model else None)


def baseline_cells(baseline: Mapping[str, Any]) -> dict[str, BaselineCell]:
    return {name: BaselineCell.read(name, part) for name, part in baseline["cells"].items()}


def tolerance_s(cell: BaselineCell, interval_s: float, current_model: Window | None = None) -> float:
    widths = [m.latest_s - m.earliest_s for m in (cell.model, current_model)
              if m and m.expected_s is not None and m.latest_s is not None and m.earliest_s is not None]
    if not widths:
        return 0.0
    return max(MIN_TOLERANCE_S, max(widths) / 2 + interval_s + 0.05)


_MEASURED_RTO = re.compile(r", base RTO \d+ ms \(measured\)")


def rto_shift_s(base_model: Window | None, now_model: Window | None) -> float:
    """How much later this run's model expects the cell than the baseline's, when the two differ
    only by the base RTO the kernel measured for its socket; 0 otherwise."""
    if not (base_model and now_model and base_model.expected_s is not None and now_model.expected_s is not None
            and base_model.base_rto_s and now_model.base_rto_s):
        return 0.0
    if _MEASURED_RTO.sub("", base_model.basis or "") != _MEASURED_RTO.sub("", now_model.basis or ""):
        return 0.0
    return now_model.expected_s - base_model.expected_s


@dataclasses.dataclass(frozen=True)
class Row:
    cell: str
    baseline_s: float | None
    now_s: float | None
    tolerance_s: float
    verdict: str            # ok | REGRESSION | MISSING | NEW | UNKNOWN: why (the run could not tell)
    rto_shift_s: float = 0.0  # of the delta, what the measured base RTO explains (rto_shift_s())

    @property
    def delta_s(self) -> float | None:
        if self.baseline_s is None or self.now_s is None:
            return None
        return self.now_s - self.baseline_s

    @property
    def failed(self) -> bool:
        return not self.verdict.startswith("ok")


def compare(baseline: Mapping[str, Any], summary: RunSummary) -> list[Row]:
    """One Row per cell of either side; detect times compared within each cell's tolerance."""
    interval = baseline.get("probe_interval_s", 0.1)
    now = {c.name: c for c in summary.cells}
    rows = []
    for name, cell in baseline_cells(baseline).items():
        model = now[name].predicted if name in now else None
        tolerance = tolerance_s(cell, interval, model)
        if name not in now:
            rows.append(Row(name, cell.detect_s, None, tolerance, "MISSING"))
            continue
        base, current = cell.detect_s, now[name].probe.detect_s
        shift = 0.0
        judged = now[name].probe.verdict
        if current is None and base is not None and judged is not None and judged.value == UNKNOWN:
            verdict = f"{UNDECIDED}: {judged.why}"          # no error yet, and the run could not wait for one
        elif base is None or current is None:
            verdict = "ok" if base is None and current is None else "REGRESSION"
        else:
            shift = rto_shift_s(cell.model, model)
            verdict = ("ok" if abs(current - base - shift) <= tolerance
                       else WITHIN_WINDOW if model is not None and model.holds(base, current) else "REGRESSION")
        rows.append(Row(name, base, current, tolerance, verdict, shift))
    rows += [Row(name, None, c.probe.detect_s, 0.0, "NEW") for name, c in now.items() if name not in baseline["cells"]]
    return rows


WITHIN_WINDOW = "ok (both in this run's model window)"
UNDECIDED = "UNKNOWN"       # a row the run could not decide: neither ok nor a regression


def kernel_warning(baseline: Mapping[str, Any], summary: RunSummary) -> str | None:
    if baseline.get("kernel") != summary.kernel:
        return (f"warning: the baseline was taken on kernel {baseline.get('kernel')}, this run is on "
                f"{summary.kernel}: differences may be the kernel's, which is what you want to know, "
                "but take a baseline for this kernel before trusting small ones")
    return None


def _seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.3f}"


def table(rows: Sequence[Row]) -> str:
    header = ("cell", "baseline detect", "now", "delta", "of it the RTO's", "tolerance", "verdict")
    lines = [header] + [(r.cell, _seconds(r.baseline_s), _seconds(r.now_s),
                         "—" if r.delta_s is None else f"{r.delta_s:+.3f}",
                         f"{r.rto_shift_s:+.3f}" if r.rto_shift_s else "—", f"±{r.tolerance_s:.3f}", r.verdict)
                        for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(line, widths)) for line in lines)


def junit_xml(rows: Sequence[Row], suite: str) -> str:
    cases = []
    for r in rows:
        case = f"<testcase classname={quoteattr(suite)} name={quoteattr(r.cell)}>"
        if r.failed:
            message = (f"{r.verdict}: detect {_seconds(r.now_s)} s, baseline {_seconds(r.baseline_s)} s, "
                       f"of the delta the measured RTO's {r.rto_shift_s:+.3f} s, tolerance ±{r.tolerance_s:.3f} s")
            case += f"<failure message={quoteattr(message)}>{escape(message)}</failure>"
        cases.append(case + "</testcase>")
    failures = sum(r.failed for r in rows)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name={quoteattr(suite)} tests="{len(rows)}" '
            f'failures="{failures}">\n' + "\n".join(cases) + "\n</testsuite>\n")


def check(path: str | Path, run: CheckedRun, say: Callable[[str], object]) -> tuple[list[str], list[str]]:
    """Compare a run with the baseline in path, say the table, write its JUnit
    file; (the cells that regressed, the cells the run could not decide)."""
    summary = run.summary_record()
    reference = json.loads(Path(path).read_text())
    warning = kernel_warning(reference, summary)
    if warning:
        say(warning)
    rows = compare(reference, summary)
    say(f"baseline {path} vs run {run.path}")
    say(table(rows))
    run.baseline_junit.write_text(junit_xml(rows, f"baseline.{summary.scenario}"))
    undecided = [r.cell for r in rows if r.verdict.startswith(UNDECIDED)]
    failed = [r.cell for r in rows if r.failed and r.cell not in undecided]
    say(f"junit: {run.baseline_junit}")
    if failed:
        say(f"REGRESSION in {len(failed)} cell(s): {', '.join(failed)}")
    if undecided:
        say(f"NOT DECIDED in {len(undecided)} cell(s): {', '.join(undecided)} (the run ended before their error "
            "could come: run it again, watching longer)")
    if not failed and not undecided:
        say(f"ok: {len(rows)} cells within tolerance")
    return failed, undecided


def write(baseline: Mapping[str, Any], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(baseline, indent=1) + "\n")
    return path
