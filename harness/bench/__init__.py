"""Benchmarks: each prints its figures, writes them (with its charts) under results/bench/, and
appends them to its history, benchmarks/<name>.jsonl (committed: one line per stored run, with
when, the commit and the machine; benchmarks/README.md)."""
import datetime
import json
import os
import platform
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..measure import run_phases
from ..store import bench_dir

HISTORY = Path(__file__).resolve().parents[2] / "benchmarks"


def commit() -> str | None:
    """This clone's commit (and whether it was changed), or None outside a git clone."""
    try:
        return subprocess.run(["git", "-C", str(HISTORY.parent), "describe", "--always", "--dirty"],
                              capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def machine() -> dict[str, Any]:
    pages, page = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    return {"cpus": os.cpu_count(), "memory_gib": round(pages * page / 2**30, 1), "kernel": platform.release()}


def store(name: str, figures: Mapping[str, Any], history: str | os.PathLike[str] | None = None) -> Path:
    """Write figures (with when and where they were taken) to results/bench/<name>-<UTC>.json and
    append them to the benchmark's history (benchmarks/<name>.jsonl)."""
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    record = {"bench": name, "utc": stamp, "kernel": platform.release(), **figures}
    directory = bench_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}-{stamp}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    history = Path(history or HISTORY)
    history.mkdir(parents=True, exist_ok=True)
    line = {"utc": stamp, "commit": commit(), "machine": machine(), **{k: v for k, v in record.items() if k != "utc"}}
    with open(history / f"{name}.jsonl", "a") as f:
        f.write(json.dumps(line, separators=(",", ":")) + "\n")
    return path


def label_axes(axes: Axes, xlabel: str, ylabel: str | None = None, legend_size: int = 9) -> None:
    axes.set_xlabel(xlabel)
    if ylabel:
        axes.set_ylabel(ylabel)
    axes.legend(fontsize=legend_size)
    axes.grid(True, alpha=0.3)


def save_chart(fig: Figure, title: str, path: str | os.PathLike[str]) -> None:
    """Title, lay out and write a matplotlib figure."""
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)


def wall_breakdown(events: Sequence[Mapping[str, Any]], summary: Mapping[str, Any], started: float,
                   ended: float) -> list[tuple[str, float]]:
    """[(phase, seconds)] of a run timed from started to ended (the lab's clock, this host's):
    what came before the lab started, the run's own phases (measure/run_phases.py), and the
    report after the cleanup."""
    phases = run_phases.phases(events, summary)
    lab_starting = run_phases.first_t(events, "lab_starting")
    cleaned = run_phases.cleanup_end_t(events)
    before = [("before the lab (scenario, run directory)", round(lab_starting - started, 3))] if lab_starting else []
    after = [("report (summary, charts, page)", round(ended - cleaned, 3))] if cleaned else []
    return before + phases + after
