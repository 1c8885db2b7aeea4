"""make workshop-check: the evening before a session, every exercise run as a participant runs it
(make exercise N=…, on the kernel it names: the guest ones in a guest), its answer set beside the
committed one (record.py: the same within the kernel model's window, or it differs), a line each
on one screen with its time, and what a participant's machine needs, as this one measured it.
Each exercise's output goes to its own log; a failure is said and the next one runs."""
import datetime
import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Self

from .. import store
from . import docs, exercises, record, session
from .exercises import Exercise

WIDTH = 80
SAMPLE_S = 1.0                 # how often the machine's memory in use is sampled


class MemoryWatch:
    """The most memory the machine had in use while the check ran (MemTotal - MemAvailable)."""

    def __init__(self) -> None:
        self.peak_kib, self.stop = 0, threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True, name="workshop-check memory")

    def _sample(self) -> None:
        while not self.stop.wait(SAMPLE_S):
            info = meminfo()
            self.peak_kib = max(self.peak_kib, info["MemTotal"] - info["MemAvailable"])

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(SAMPLE_S * 2)


def meminfo() -> dict[str, int]:
    found = {}
    with open("/proc/meminfo") as f:
        for line in f:
            name, _, rest = line.partition(":")
            found[name] = int(rest.split()[0])
    return found


def verdict(ex: Exercise, new: Mapping[str, Any], committed: Mapping[int, Any]) -> tuple[str, str]:
    """(word, detail) of a run's answer against the committed one."""
    before = committed.get(ex.number)
    if before is None or not record.ran_where_it_asks(ex, before):
        return "new", f"no committed answer from {docs.where(ex)}: make workshop-docs writes this one"
    differing = record.differences(before, new)
    if not differing:
        return "agrees", "the committed answer stands"
    return "DIFFERS", "; ".join(f"{key}: {was} now {now}" for key, was, now in differing)


def lab_images_bytes() -> float:
    """The lab's images on this machine's Docker engine, in bytes (what a laptop must hold)."""
    listed = subprocess.run(["docker", "image", "ls", "--format", "{{.Repository}}\t{{.Size}}"],
                            capture_output=True, text=True, timeout=60)
    units = {"B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9}
    total = 0.0
    for line in listed.stdout.splitlines():
        repository, _, size = line.partition("\t")
        if repository.startswith("blackhole") and size:
            number = size.rstrip("kKMGB")
            total += float(number) * units.get(size[len(number):], 1)
    return total


def allocated_bytes(path: str | Path) -> int:
    """What a file or folder holds on the disk (its blocks: a guest's disk image is sparse)."""
    path = str(path)
    if os.path.isfile(path):
        return os.stat(path).st_blocks * 512
    if not os.path.isdir(path):
        return 0
    return sum(os.lstat(os.path.join(root, name)).st_blocks * 512 for root, _, names in os.walk(path) for name in names)


def newest(paths: Iterable[str]) -> str | None:
    found = [p for p in paths if os.path.exists(p)]
    return max(found, key=os.path.getmtime) if found else None


def guest_bytes(cache_dir: str | Path | None) -> int:
    """What one guest kernel's exercises keep on the disk: the newest guest disk, its saved state,
    the root tree it is made from and the kernels (the cache may hold older disks besides)."""
    if not cache_dir or not os.path.isdir(cache_dir):
        return 0
    guest = os.path.join(cache_dir, "guest")
    disk = newest(glob.glob(os.path.join(guest, "disks", "*")))
    saved = newest(glob.glob(os.path.join(guest, "saved", "*")))
    return sum(allocated_bytes(p) for p in (disk, saved, os.path.join(guest, "rootfs"), os.path.join(cache_dir, "kernels"))
               if p)


def needs(peak_kib: int, cache_dir: str | Path | None) -> list[str]:
    """What a participant's machine needs, as this one measured it: lines of the screen."""
    gib = 2 ** 30
    total = meminfo()["MemTotal"] * 1024
    debian = open("/etc/debian_version").read().strip() if os.path.exists("/etc/debian_version") else "not Debian"
    return [f"this machine: {os.cpu_count()} CPUs, {total / gib:.1f} GiB, Debian {debian}, "
            f"{'root' if os.geteuid() == 0 else 'not root'}; at most {peak_kib * 1024 / gib:.1f} GiB in use",
            f"disk: images {lab_images_bytes() / 1e9:.1f} GB, a guest {guest_bytes(cache_dir) / 1e9:.1f} GB "
            f"(disk, saved state, kernel); {shutil.disk_usage(store.results_root().parent).free / 1e9:.0f} GB free"]


def line(ex: Exercise, seconds: float | None, word: str, detail: str) -> str:
    head = f"{ex.number:>2}. {ex.title}"[:44].ljust(44) + f" {docs.minutes(seconds):>5}  {word}"
    return head if len(head) >= WIDTH else (head + f": {detail}")[:WIDTH]


def screen_lines(ex: Exercise, seconds: float | None, word: str, detail: str) -> list[str]:
    """An exercise's line; what differs, or why it failed, whole beneath it when the line cut it."""
    first = line(ex, seconds, word, detail)
    if word not in ("DIFFERS", "FAILED") or first.endswith(detail):
        return [first]
    return [first] + textwrap.wrap(detail, WIDTH, initial_indent="    ", subsequent_indent="    ",
                                   break_on_hyphens=False)


def run_check(numbers: Sequence[int] | None = None, results: str | Path | None = None, out: IO[str] = sys.stdout,
              cache_dir: str | Path | None = None) -> tuple[dict[str, Any], Path]:
    """Check the exercises (numbers, or every one); returns (record of this check, its path). Exit
    status for make: nonzero when one failed or differs."""
    chosen = [ex for ex in exercises.all_exercises() if not numbers or ex.number in numbers]
    committed = record.load(docs.DOCS_DIR / docs.FACILITATOR / "answers.json")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    logs = store.results_root() / "workshop-check" / stamp
    logs.mkdir(parents=True)
    out.write(f"workshop-check: {len(chosen)} exercise(s), each as make exercise runs it; logs in "
              f"{store.shown(logs)}\n")
    out.flush()
    found, started = [], time.monotonic()
    with MemoryWatch() as memory:
        for ex in chosen:
            t0 = time.monotonic()
            with open(logs / f"exercise-{ex.number}.log", "w") as log:
                try:
                    run = session.run_exercise(ex.number, out=log, results=results)
                    new = record.entry(ex, run.summary_record(), run.env(), time.monotonic() - t0)
                    word, detail = verdict(ex, new, committed)
                    outside = [c for c, v in new["verdicts"].items() if v["within_window"] is False]
                    if outside:
                        detail += f" (outside its window here: {', '.join(outside)}: see its page)"
                    undecided = [c for c, v in new["verdicts"].items() if v.get("unknown")]
                    if undecided:
                        detail += f" (not decided by the run here: {', '.join(undecided)}: see its page)"
                    entry = {"exercise": ex.number, "run": str(run.path), "verdict": word, "detail": detail}
                except Exception as exc:            # said, and the next exercise runs
                    word, detail = "FAILED", (str(exc).splitlines() or [repr(exc)])[0]
                    entry = {"exercise": ex.number, "run": None, "verdict": word, "detail": detail}
            seconds = round(time.monotonic() - t0, 1)
            entry["seconds"] = seconds
            found.append(entry)
            out.write("".join(text + "\n" for text in screen_lines(ex, seconds, word, detail)))
            out.flush()
        peak = memory.peak_kib
    for text in needs(peak, cache_dir) + [f"{len(chosen)} exercise(s) in {docs.minutes(time.monotonic() - started)}; "
                                          "make workshop-docs takes in what differs or is new"]:
        out.write(text[:WIDTH] + "\n")
    summary = {"utc": stamp, "exercises": found, "peak_memory_kib": peak}
    (logs / "check.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary, logs / "check.json"
