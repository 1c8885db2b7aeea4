"""Finding and removing what labs left behind, by label (also after a crash).

`clean()` removes the labs whose owner is gone: the run that made it is not running any more
and `make up` did not keep it. `clean(everything=True)` removes every lab, kept ones and other
people's running ones too. Guests: a run's QEMU dies with its run; what is left of one is its
state directory, and `everything` also stops guests `make up` kept.
"""
import glob
import os
import shutil
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from python_on_whales import DockerClient

from . import registry
from .container_states import PROJECT_LABEL, answer, command_of
from .engine import HostEngine, PlaceEngine
from .images import LABEL
from .safe_removal import kill_and_wait_for_probes

OWNER_LABEL = "org.blackhole-lab.owner"


# What a listing reads of each labelled object: its name and the labels cleanup asks (an object's
# whole label set, one string, cannot be split where a value holds a comma: Compose's file lists).
LISTINGS = {"container": ("container", "ls", "--all", "{{.Names}}"), "network": ("network", "ls", "{{.Name}}"),
            "volume": ("volume", "ls", "{{.Name}}")}
READ_LABELS = (PROJECT_LABEL, OWNER_LABEL)


def _labelled(docker: DockerClient) -> list[tuple[str, str, dict[str, str]]]:
    """[(kind, name, labels)] of every container, network and volume labelled as the lab's, each
    kind in one `ls` that reads the labels too: no inspect after it, so an object another lab's
    cleanup removes meanwhile is simply listed or not (five workers' labs once removed one between
    python-on-whales' listing and its inspect three times running)."""
    found = []
    for kind, (*listing, name_field) in LISTINGS.items():
        fields = "\t".join([name_field, *(f'{{{{.Label "{label}"}}}}' for label in READ_LABELS)])
        lines = answer(f"{kind} ls", [*command_of(docker), *listing, "--filter", f"label={LABEL}", "--format", fields])
        for line in lines.splitlines():
            name, *values = line.split("\t")
            found.append((kind, name, {label: value for label, value in zip(READ_LABELS, values) if value}))
    return found


def labelled_leftovers(engine: PlaceEngine | None = None, project: str | None = None) -> dict[str, list[str]]:
    """Names of every container, network and volume labelled as the lab's (of one project)."""
    found: dict[str, list[str]] = {"containers": [], "networks": [], "volumes": []}
    for kind, name, labels in _labelled((engine or HostEngine()).docker()):
        if project is None or labels.get(PROJECT_LABEL) == project:
            found[f"{kind}s"].append(name)
    return found


def owned_by(pid: int, engine: PlaceEngine | None = None) -> list[str]:
    """Names of the lab's containers, networks and volumes whose owner label names process `pid`."""
    return [name for _, name, labels in _labelled((engine or HostEngine()).docker())
            if (_owner_from_label(labels.get(OWNER_LABEL)) or {}).get("pid") == pid]


def _owner_from_label(text: str | None) -> dict[str, int] | None:
    pid, _, start = (text or "").partition(":")
    return {"pid": int(pid), "start": int(start)} if pid.isdigit() and start.isdigit() else None


def _why_kept(project: str, labels: Mapping[str, str], entries: Mapping[str, Mapping[str, Any]]) -> str | None:
    """Why a lab stays ('kept by make up', 'its run, pid 123, is running'), or None if it goes."""
    entry = entries.get(project)
    if entry and entry.get("kept"):
        return "kept by `make up`"
    owner = entry["owner"] if entry else _owner_from_label(labels.get(OWNER_LABEL))
    if owner is not None and registry.alive(owner):
        return f"its owner, pid {owner['pid']}, is running"
    return None


def clean(engine: PlaceEngine | None = None, everything: bool = False) -> dict[str, Any]:
    """Returns {"removed": {project: [names]}, "kept": {project: why}}."""
    docker = (engine or HostEngine()).docker()
    by_project: dict[str, dict[str, Any]] = {}
    for kind, name, labels in _labelled(docker):
        project = labels.get(PROJECT_LABEL, "?")
        by_project.setdefault(project, {"labels": labels, "container": [], "network": [], "volume": []})
        by_project[project][kind].append(name)
    entries = registry.entries()
    removed, kept = {}, {}
    for project, found in sorted(by_project.items()):
        why = None if everything else _why_kept(project, found["labels"], entries)
        if why:
            kept[project] = why
            continue
        if found["container"]:
            kill_and_wait_for_probes(docker, project)
            docker.container.remove(found["container"], force=True, volumes=True)
        if found["network"]:
            docker.network.remove(found["network"])
        if found["volume"]:
            docker.volume.remove(found["volume"])
        registry.release(project)
        removed[project] = found["container"] + found["network"] + found["volume"]
    for project, entry in entries.items():          # registered, nothing on the engine, nobody's
        if project not in by_project and (everything or not registry.live(entry)):
            registry.release(project)
    # Images are kept (they make the next `up` fast), but old builds left untagged are garbage.
    docker.image.prune(filter={"label": LABEL})
    removed_guests = clean_guests(everything)
    return {"removed": removed, "kept": kept, "guests": removed_guests}


# A guest's state directory is made just before its QEMU starts and writes qemu.pid: one without
# it is a guest starting (another run's, a test beside this one) until it is this old.
STARTING_GUEST_S = 300


# Where guests keep their state: a run's temporary directory, and a kept guest's (`make up`).
GUEST_STATE_DIRS = ("/tmp/blackhole-guest-*", str(Path(__file__).resolve().parents[2] / ".lab/*/guest"))


def _younger_than(path: str, seconds: float) -> bool:
    try:
        return time.time() - os.stat(path).st_mtime < seconds
    except OSError:
        return False


def clean_guests(everything: bool = False) -> list[str]:
    """State directories of guests whose QEMU is gone; with everything, running guests too."""
    from .guest.qemu import kill_pid, running_guests
    gone: list[str] = []
    if everything:
        for pid in running_guests():
            kill_pid(pid)
            gone.append(f"qemu pid {pid}")
    running = set(running_guests())
    for state in (found for pattern in GUEST_STATE_DIRS for found in glob.glob(pattern)):
        pidfile = Path(state) / "qemu.pid"
        text = pidfile.read_text().strip() if pidfile.exists() else ""
        owner: int | None = int(text) if text.isdigit() else None
        if owner is None and _younger_than(state, STARTING_GUEST_S):
            continue                    # a guest still starting: its QEMU has no pid file yet
        if owner not in running:
            shutil.rmtree(state, ignore_errors=True)
            gone.append(state)
    return gone
