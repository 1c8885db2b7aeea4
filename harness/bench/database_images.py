"""make bench-db-images: what each database engine's image costs. Per engine (harness/databases/):
the image built from its Dockerfile with no cache (base image present), its size, and a primary
started from it: seconds until its health check first passes. Throwaway tags and containers,
removed after."""
import os
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import store
from ..databases import DATABASES
from ..databases.base import DatabaseEngine
from ..lab.images import REPO, compose_services

BENCH_LABEL = "org.blackhole-lab.bench=db-images"


def build_context(engine: DatabaseEngine) -> Path:
    """The directory its image builds from: the db-primary override of the engine, or compose.yaml's."""
    override = engine.services().get("db-primary", {}).get("build", {})
    return REPO / (override.get("context") or compose_services()["db-primary"]["build"]["context"])


def timed(command: Sequence[str], **options: Any) -> float:
    started = time.monotonic()
    subprocess.run(command, check=True, capture_output=True, text=True, **options)
    return time.monotonic() - started


def one_engine(name: str) -> dict[str, Any]:
    engine = DATABASES[name]()
    tag = f"blackhole-bench/{name}:{os.getpid()}"
    container = f"blackhole-bench-{name}-{os.getpid()}"
    try:
        build_s = timed(["docker", "build", "--no-cache", "-q", "--label", BENCH_LABEL, "-t", tag,
                         str(build_context(engine))], timeout=1800)
        size = int(subprocess.run(["docker", "image", "inspect", "-f", "{{.Size}}", tag], check=True,
                                  capture_output=True, text=True).stdout)
        started = time.monotonic()
        subprocess.run(["docker", "run", "-d", "--name", container, "--label", BENCH_LABEL, "--network", "none",
                        "--tmpfs", "/var/lib/mysql", "-e", "ROLE=primary", "-e", "SERVER_ID=1", tag],
                       check=True, capture_output=True)
        ready_s = None
        while time.monotonic() - started < 300:
            if subprocess.run(["docker", "exec", container, "/usr/local/bin/healthcheck.sh"],
                              capture_output=True).returncode == 0:
                ready_s = time.monotonic() - started
                break
            time.sleep(0.2)
        version = subprocess.run(["docker", "exec", container, *engine.version_command], capture_output=True,
                                 text=True).stdout.strip()
    finally:
        subprocess.run(["docker", "rm", "-f", container], capture_output=True)
        subprocess.run(["docker", "image", "rm", "-f", tag], capture_output=True)
    return {"engine": name, "version": version, "build_no_cache_s": round(build_s, 1),
            "size_mb": round(size / 1e6), "start_to_healthy_s": None if ready_s is None else round(ready_s, 2)}


def main() -> None:
    rows = []
    for name in sorted(DATABASES):
        print(f"bench-db-images: {name}: building with no cache, then starting a primary ...", flush=True)
        rows.append(one_engine(name))
        print(f"  {rows[-1]}", flush=True)
    path = store("db-images", {"engines": rows})
    print(f"{'engine':10}{'build s':>10}{'size MB':>10}{'healthy s':>11}  version")
    for row in rows:
        print(f"{row['engine']:10}{row['build_no_cache_s']:>10}{row['size_mb']:>10}"
              f"{str(row['start_to_healthy_s']):>11}  {row['version']}")
    print(f"stored: {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main()
