"""A burst run's results (backlog-overflow): connect-time steps, statuses, kernel counters,
from its files only."""
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .run_files import RunFiles

COUNTERS = ("TcpExtListenOverflows", "TcpExtListenDrops", "TcpExtTCPReqQFullDrop", "TcpExtTCPReqQFullDoCookies",
            "TcpExtTCPSynRetrans", "TcpExtTCPAbortOnData")
STEP_EDGES = (0.0, 0.5, 1.5, 2.5, 3.5, 4.5, 6.0, 9.0, 15.0, 27.0, 50.0, float("inf"))  # around 1,2,3,4,5,7,11,19,35 s
NGINX_RE = re.compile(r'^(?P<t>[\d.]+) (?P<status>\d{3}) (?P<upstream>\S+) (?P<time>[\d.]+) "(?P<uri>[^"]*)"')
Connection = Mapping[str, Any]      # one line of a cell's connections.jsonl


class Sysctls(Protocol):
    @property
    def sysctls(self) -> tuple[tuple[str, int], ...]: ...


class BurstCellSpec(Protocol):
    """A burst cell as its scenario names it (scenario/burst.py's BurstCell gives it)."""
    @property
    def name(self) -> str: ...
    @property
    def server(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def cell(self) -> Sysctls: ...


class BurstServerSpec(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def backlog(self) -> int: ...
    @property
    def somaxconn(self) -> int: ...
    @property
    def abort_on_overflow(self) -> int: ...
    @property
    def syncookies(self) -> int: ...


class BurstScenarioSpec(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def cells(self) -> Sequence[BurstCellSpec]: ...
    @property
    def servers(self) -> Sequence[BurstServerSpec]: ...


def parse_connections(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def parse_nstat(text: str) -> dict[str, int]:
    """`nstat -az` output -> {counter: value}."""
    values: dict[str, int] = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[1].isdigit():
            values[words[0]] = int(words[1])
    return values


def counter_deltas(before: Mapping[str, int], after: Mapping[str, int]) -> dict[str, int]:
    return {name: after.get(name, 0) - before.get(name, 0) for name in COUNTERS}


def connect_steps(connections: Sequence[Connection]) -> dict[str, int]:
    """How many connections connected within each band of seconds: the SYN retransmission
    times (1 s, 3 s, 7 s, ...) show as bands that fill while those in between stay empty."""
    bands: Counter[str] = Counter()
    for c in connections:
        if c["connect_s"] is None:
            continue
        for low, high in zip(STEP_EDGES, STEP_EDGES[1:]):
            if low <= c["connect_s"] < high:
                bands[f"{low:g}-{high:g}s"] += 1
                break
    return dict(bands)


def nginx_statuses(access_log: str, cell_name: str) -> dict[str, int]:
    """Status counts of the requests a cell made through nginx (its URI carries ?cell=NAME)."""
    statuses: Counter[str] = Counter()
    for line in access_log.splitlines():
        m = NGINX_RE.match(line)
        if m and m["uri"].endswith(f"cell={cell_name}"):
            statuses[m["status"]] += 1
    return dict(statuses)


def summarize_cell(cell: BurstCellSpec, connections: Sequence[Connection], nstat_before: Mapping[str, int],
                   nstat_after: Mapping[str, int], access_log: str) -> dict[str, Any]:
    connected = [c["connect_s"] for c in connections if c["connect_s"] is not None]
    return {
        "cell": cell.name, "server": cell.server, "target": cell.target,
        "knobs": dict(cell.cell.sysctls),
        "connections": len(connections),
        "statuses": dict(Counter(str(c["status"]) for c in connections if c["status"] is not None)),
        "errors": dict(Counter(c["error"] for c in connections if c["error"])),
        "connect_s": {"max": max(connected, default=None), "median": sorted(connected)[len(connected) // 2]
                      if connected else None, "failed": len(connections) - len(connected)},
        "connect_steps": connect_steps(connections),
        "server_counters": counter_deltas(nstat_before, nstat_after),
        "nginx_statuses": nginx_statuses(access_log, cell.name) if cell.target == "nginx" else {},
    }


def summarize(run: RunFiles, scenario: BurstScenarioSpec) -> dict[str, Any]:
    """run: a store.RunDir of a burst run."""
    cells = []
    for cell in scenario.cells:
        connections = run.cell_file(cell.name, "connections.jsonl")
        if not connections.exists():
            continue
        cells.append(summarize_cell(
            cell, parse_connections(connections.read_text()),
            parse_nstat(run.read(run.cell_file(cell.name, "nstat-before.txt"))),
            parse_nstat(run.read(run.cell_file(cell.name, "nstat-after.txt"))),
            run.read(run.service_log(f"{cell.server}-access"))))
    servers = {s.name: {"backlog": s.backlog, "somaxconn": s.somaxconn, "abort_on_overflow": s.abort_on_overflow,
                        "syncookies": s.syncookies} for s in scenario.servers}
    return {"scenario": scenario.id, "run": run.name, "kind": "burst", "servers": servers, "cells": cells}
