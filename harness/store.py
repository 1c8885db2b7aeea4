"""Where runs live: results/<scenario>/<UTC-time>-<id>/, with `latest` links."""
import datetime
import os
import secrets
from pathlib import Path

RESULTS = Path(os.environ.get("BLACKHOLE_RESULTS") or Path(__file__).resolve().parent.parent / "results")


def new_run_dir(scenario_id, results=RESULTS):
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    run_dir = Path(results) / scenario_id / f"{stamp}-{secrets.token_hex(3)}"
    (run_dir / "clients").mkdir(parents=True)
    return run_dir


def link_latest(run_dir):
    """results/latest and results/<scenario>/latest point at run_dir (relative links)."""
    run_dir = Path(run_dir)
    for link in (run_dir.parent / "latest", run_dir.parents[1] / "latest"):
        tmp = link.with_name(link.name + ".tmp")
        if tmp.is_symlink():
            tmp.unlink()
        tmp.symlink_to(os.path.relpath(run_dir, link.parent))
        os.replace(tmp, link)


def cell_dir(run_dir, cell_name):
    path = Path(run_dir) / "clients" / cell_name
    path.mkdir(parents=True, exist_ok=True)
    return path
