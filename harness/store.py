"""Where runs live, and every path inside one: RunDir spells the files a run shares, and a
signal its own (Signal.files, through RunDir.file).

  results/<scenario>/<UTC-time>-<id>/       a run (RunDir)
  results/latest, results/<scenario>/latest the newest run
  results/bench/                            benchmark figures
BLACKHOLE_RESULTS moves the results root (read when asked, so tests can set it).
"""
import datetime
import functools
import json
import os
import secrets
from pathlib import Path
from typing import IO, Any

import yaml

from .measure import summary_record
from .settings import machine

REPO = Path(__file__).resolve().parent.parent


def results_root() -> Path:
    return machine.results_root()


def shown(path: str | os.PathLike[str]) -> str:
    """A path as a terminal shows it: relative to the working directory when it is below it."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def bench_dir() -> Path:
    return results_root() / "bench"


def new_comparison_dir(kind: str, name: str) -> Path:
    """results/<kind>/<UTC-time>-<name>/ for a page comparing runs (kernel-matrix, compare)."""
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = results_root() / kind / f"{stamp}-{name}"
    path.mkdir(parents=True)
    return path


RESERVE_BYTES = 2 << 20        # each of a run's two reserves: space kept for its end and its report


class RunDir:
    """One run's directory. Reading methods tolerate missing files (an interrupted run).

    A run keeps two reserves of disk space (.reserve-end, .reserve-report): should the disk fill
    under it, the first is given back to record how it ended and the second to write its summary
    and page."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).resolve()

    @classmethod
    def create(cls, scenario_id: str, raw_definition: Any, results: str | os.PathLike[str] | None = None) -> "RunDir":
        """A new run directory holding the definition as run."""
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        run = cls(Path(results or results_root()) / scenario_id / f"{stamp}-{secrets.token_hex(3)}")
        (run.path / "clients").mkdir(parents=True)
        run.scenario_file.write_text(
            yaml.safe_dump({"id": scenario_id, "definition": raw_definition}, sort_keys=False))
        for part in ("end", "report"):
            (run.path / f".reserve-{part}").write_bytes(bytes(RESERVE_BYTES))
        return run

    def release_reserve(self, part: str) -> None:
        """Give back the space kept for the run's 'end' or its 'report'."""
        (self.path / f".reserve-{part}").unlink(missing_ok=True)

    def __fspath__(self) -> str:
        return str(self.path)

    def __repr__(self) -> str:
        return f"RunDir({str(self.path)!r})"

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def results(self) -> Path:
        """The results root this run lives under."""
        return self.path.parents[1]

    # -- files the harness writes ----------------------------------------------
    scenario_file = property(lambda self: self.path / "scenario.yaml")
    env_file = property(lambda self: self.path / "env.json")
    events_file = property(lambda self: self.path / "events.jsonl")
    summary_json = property(lambda self: self.path / "summary.json")
    summary_md = property(lambda self: self.path / "summary.md")
    page = property(lambda self: self.path / "index.html")
    baseline_junit = property(lambda self: self.path / "baseline-check.xml")
    lab_workdir = property(lambda self: self.path / "lab")
    guest_dir = property(lambda self: self.path / "guest")          # a guest's console log and clock

    def _at(self, *parts: str) -> Path:
        return self.path.joinpath(*parts)

    def file(self, relative: str) -> Path:
        """A file of the run by its path under it: a signal's own (Signal.files names them)."""
        return self.path / relative

    def cell_file(self, cell: str, name: str) -> Path:
        """clients/<cell>/<name>: probe.jsonl, sysbench.log, connections.jsonl, nstat-*.txt, ..."""
        return self._at("clients", cell, name)

    def probe_log(self, cell: str) -> Path:
        return self.cell_file(cell, "probe.jsonl")

    def sysbench_log(self, cell: str) -> Path:
        return self.cell_file(cell, "sysbench.log")

    def ss_samples(self, namespace: str) -> Path:
        return self._at("namespaces", namespace, "ss.txt")

    def director_flows(self, label: str) -> Path:
        return self._at("director", f"flows-{label}.txt")

    def director_table(self, service: str) -> Path:
        """`ipvsadm -Ln` of a director, sampled (a control plane that acts by itself)."""
        return self._at("director", f"table-{service}.txt")

    def service_log(self, service: str) -> Path:
        return self._at("logs", f"{service}.log")

    def services_logged(self) -> list[str]:
        """The services (containers) whose logs the run kept: every one its lab ran."""
        return sorted(p.stem for p in self._at("logs").glob("*.log"))

    charts_dir = property(lambda self: self.path / "charts")

    def chart(self, name: str) -> Path:
        return self.charts_dir / name

    def relative(self, path: str | os.PathLike[str]) -> str:
        return Path(path).relative_to(self.path).as_posix()

    # -- writing and reading ----------------------------------------------------
    @staticmethod
    def open(path: str | os.PathLike[str], mode: str = "w") -> IO[Any]:
        """Open a file of the run for writing, making its folder."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return open(path, mode)

    def write_text(self, path: Path, text: str) -> Path:
        with self.open(path) as f:
            f.write(text)
        return path

    @staticmethod
    def read(path: str | os.PathLike[str]) -> str:
        path = Path(path)
        return path.read_text() if path.exists() else ""

    @functools.cached_property
    def definition(self) -> tuple[str, Any]:
        """(scenario id, raw definition) as run (harness.scenario.of_run parses it)."""
        raw = yaml.safe_load(self.scenario_file.read_text())
        return raw["id"], raw["definition"]

    def env(self) -> dict[str, Any]:
        return json.loads(self.env_file.read_text()) if self.env_file.exists() else {}

    def events(self) -> list[dict[str, Any]]:
        """The run's events; a last line still being written (the cleanup adds events while the
        report reads them) is not one yet."""
        lines = self.read(self.events_file).split("\n")[:-1]       # complete lines only
        return [json.loads(line) for line in lines if line.strip()]

    def summary(self) -> dict[str, Any]:
        return json.loads(self.summary_json.read_text())

    def summary_record(self) -> summary_record.RunSummary:
        """summary.json as typed records (measure/summary_record.py)."""
        return summary_record.read(self.summary())

    def lab_project(self) -> str | None:
        """The Compose project the run's lab had (None if the run never got as far as making one)."""
        env_file = self.lab_workdir / "lab.env"
        for line in self.read(env_file).splitlines():
            if line.startswith("LAB_PROJECT="):
                return line.split("=", 1)[1]
        return None

    # -- latest links -----------------------------------------------------------
    def link_latest(self) -> None:
        """results/latest and results/<scenario>/latest point at this run (relative links)."""
        for link in (self.path.parent / "latest", self.results / "latest"):
            tmp = link.with_name(link.name + ".tmp")
            if tmp.is_symlink():
                tmp.unlink()
            tmp.symlink_to(os.path.relpath(self.path, link.parent))
            os.replace(tmp, link)


def runs(results: str | os.PathLike[str] | None = None) -> list[RunDir]:
    """Every run directory under the results root (not the latest links), newest first."""
    root = Path(results or results_root())
    found = [p for p in root.glob("*/*/scenario.yaml") if not p.parent.is_symlink()]
    return [RunDir(p.parent) for p in sorted(found, key=lambda p: p.parent.name, reverse=True)]
