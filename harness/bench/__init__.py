"""Benchmarks: each prints its figures and stores them under results/bench/."""
import datetime
import json
import platform

from ..measure import run_phases
from ..store import bench_dir


def store(name, figures):
    """Write figures (with when and where they were taken) to results/bench/<name>-<UTC>.json."""
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    record = {"bench": name, "utc": stamp, "kernel": platform.release(), **figures}
    directory = bench_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}-{stamp}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    return path


def label_axes(axes, xlabel, ylabel=None, legend_size=9):
    axes.set_xlabel(xlabel)
    if ylabel:
        axes.set_ylabel(ylabel)
    axes.legend(fontsize=legend_size)
    axes.grid(True, alpha=0.3)


def save_chart(fig, title, path):
    """Title, lay out and write a matplotlib figure."""
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)


def wall_breakdown(events, summary, started, ended):
    """[(phase, seconds)] of a run timed from started to ended (the lab's clock, this host's):
    what came before the lab started, the run's own phases (measure/run_phases.py), and the
    report after the cleanup."""
    phases = run_phases.phases(events, summary)
    lab_starting = run_phases.first_t(events, "lab_starting")
    cleaned = run_phases.cleanup_end_t(events)
    before = [("before the lab (scenario, run directory)", round(lab_starting - started, 3))] if lab_starting else []
    after = [("report (summary, charts, page)", round(ended - cleaned, 3))] if cleaned else []
    return before + phases + after
