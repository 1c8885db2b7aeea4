"""Labs on this machine's Docker engine, side by side: each gets its own Compose project and a
free pair of /24 subnets, and records who owns it, so `make clean` can tell a dead run's lab
from a live one (or from one `make up` keeps on purpose).

The registry is a folder of small JSON files (BLACKHOLE_STATE, default /tmp/blackhole-lab/labs),
one per lab, written under a lock; a lab whose owner process is gone and that is not kept is
forgotten the next time anyone looks.
"""
import fcntl
import json
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from pathlib import Path

from ..settings import machine

PAIRS = 126                           # 10.213.1.0/24 + 10.213.2.0/24, 10.213.3 + .4, ... 10.213.251 + .252


def registry_dir() -> Path:
    path = machine.state_dir()
    path.mkdir(parents=True, exist_ok=True)
    return path


def process_start(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (telling a live owner from a reused pid);
    None if there is no such process or it is a zombie (dead, waiting to be reaped)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    if len(fields) < 20 or fields[0] == "Z" or not fields[19].isdigit():
        return None
    return int(fields[19])


def me() -> dict[str, int | None]:
    return {"pid": os.getpid(), "start": process_start(os.getpid())}


def alive(owner: Mapping[str, Any] | None) -> bool:
    if not owner:
        return False
    return owner.get("pid") is not None and process_start(owner["pid"]) == owner.get("start")


@contextmanager
def _locked() -> Iterator[None]:
    with open(registry_dir() / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def entries() -> dict[str, dict[str, Any]]:
    """{project: entry} of every registered lab."""
    found = {}
    for path in registry_dir().glob("*.json"):
        try:
            found[path.stem] = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
    return found


def live(entry: Mapping[str, Any]) -> bool:
    """Still somebody's: kept by `make up`, or its owner process is running."""
    return bool(entry.get("kept")) or alive(entry.get("owner"))


def reserve(project: str, subnets_in_use: Iterable[str]) -> tuple[str, str]:
    """A free pair of subnet prefixes for project ('10.213.7', '10.213.8'), registered as owned by
    this process. subnets_in_use: prefixes ('10.213.1') the engine's networks already have."""
    with _locked():
        current = entries()
        if project in current and live(current[project]) and current[project]["owner"] != me() \
                and not current[project].get("kept"):
            raise RuntimeError(f"lab project {project} belongs to running process {current[project]['owner']['pid']}")
        taken = set(subnets_in_use)
        for name, entry in current.items():
            if name != project and live(entry):
                taken |= {entry["front"], entry["back"]}
        for k in range(PAIRS):
            front, back = f"10.213.{2 * k + 1}", f"10.213.{2 * k + 2}"
            if front not in taken and back not in taken:
                entry = {"project": project, "front": front, "back": back, "owner": me(), "kept": False,
                         "created": time.time()}
                (registry_dir() / f"{project}.json").write_text(json.dumps(entry))
                return front, back
    raise RuntimeError("no free subnet pair left in 10.213.0.0/16 for another lab")


def keep(project: str) -> None:
    """The lab outlives its owner (`make up`): only `make down` or `make clean ALL=1` remove it."""
    path = registry_dir() / f"{project}.json"
    with _locked():
        if path.exists():
            entry = json.loads(path.read_text())
            entry["kept"] = True
            path.write_text(json.dumps(entry))


def release(project: str) -> None:
    with _locked():
        (registry_dir() / f"{project}.json").unlink(missing_ok=True)
