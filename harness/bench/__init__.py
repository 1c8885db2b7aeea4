"""Benchmarks: each prints its figures and stores them under results/bench/."""
import datetime
import json
import platform

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
