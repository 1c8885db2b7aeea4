"""An incident's folder (harness/imports) -> the failover that replays it: the operator's own cell
(their driver and its settings, their host's TCP sysctls) beside the cures the model ranks
(harness/answer/ranking.py), in its order, in one failover behind the operator's load balancer with
their timers, on the Debian kernel series nearest the one the dump came from. A cure of the load
balancer's is a director of its own (a variant with that change); the pair is a cell with the
client's limits behind such a director. The run watches until every cure the model says ends before
the operator's own cell has ended, plus a margin; the operator's cell is then still waiting, as the
model says (full=True waits it out). Pure: a scenario definition, and the lines that say what was
chosen."""
import copy
import dataclasses
import re
from typing import Any

from ..answer import Answer, Question
from ..answer.words import seconds
from ..answer.cures import DIRECTOR, DRIVER, PAIR
from ..answer.ranking import Ranked, Ranking, rank
from ..errors import InvalidInput
from ..imports import Incident
from ..imports.driver_import import DriverImport
from ..imports.sysctl_dump import SysctlDump
from ..load.clients import CLIENTS
from ..measure.sysctl_knobs import SYSCTL_KNOBS
from ..settings.targets import KNOWN_SERIES

YOURS = "yours"
DEFAULT_SERIES = "6.12"
SERIES_OF_RELEASE = re.compile(r"^(\d+)\.(\d+)")
# After the last cure the model expects back, the run watches this much longer (a late report, a
# reconnect's first answer), then ends; the operator's own cell is judged by its retransmissions.
MARGIN_S = 15
FULL_MARGIN_S = 60
# How often each cell's client asks: a JVM (or Node.js) per cell costs ~1.7 ms of CPU per query on
# this host, ~20x that under QEMU's emulation, so ten of them at 10 queries/s saturated a two-vCPU
# guest (a replay of 2026-12-03: its lab took 5 min to get every JVM's first answer, the fault 16 s
# to land); at 4 queries/s they leave it room. The lighter clients ask every 100 ms.
INTERVAL_MS = {"JVM": 250, "Node.js": 250}
# A client-side cure the model says saves less than this is ranked, not run (a cell costs a JVM).
NO_HELP_S = 0.5
# A cure that changes nothing of the driver (the kernel's, the socket's, the load balancer's) is run,
# behind a client of these runtimes, by the lab's own probe holding the driver's read and connect
# timeouts: what ends its wait and when it connects again are the kernel's and those two limits', and a
# JVM per cell is what saturated the emulated guest. The driver's own cures, and yours, run the driver.
STAND_IN_FOR = ("JVM", "Node.js")


@dataclasses.dataclass(frozen=True)
class Plan:
    definition: dict[str, Any]    # the scenario, as a scenario file would say it
    series: str               # the Debian kernel series the dump's kernel maps to
    lines: tuple[str, ...]    # what was chosen and why
    ranking: Ranking          # the model's ranking the cells follow
    waited_out: bool          # the observation covers the operator's own cell too
    stood_in: dict[str, str] = dataclasses.field(default_factory=dict)   # {cell: who ran it in the driver's stead}


def kernel_for(release: str | None) -> tuple[str, str]:
    """(series, line): the Debian series a guest boots for the dump's kernel.osrelease."""
    release = release or ""
    m = SERIES_OF_RELEASE.match(release)
    if not m:
        return DEFAULT_SERIES, f"the dump names no kernel (kernel.osrelease): Debian's {DEFAULT_SERIES}"
    version = (int(m.group(1)), int(m.group(2)))
    known = sorted(tuple(map(int, s.split("."))) for s in KNOWN_SERIES)
    at_or_below = [k for k in known if k <= version]
    chosen = at_or_below[-1] if at_or_below else known[0]
    series = f"{chosen[0]}.{chosen[1]}"
    if chosen == version and release.endswith("-amd64"):
        return series, f"kernel {release}: a guest booting Debian's {series} (this host lacks IPVS)"
    return series, (f"kernel {release} is not one of Debian's series the lab boots: the nearest at or below it, "
                    f"{series}")


def cell_sysctls(dump: SysctlDump | None, series: str) -> tuple[dict[str, int], list[str]]:
    """The dump's client-side sysctls a new namespace would not have by itself, on that kernel."""
    kept: dict[str, int] = {}
    lines: list[str] = []
    for key, value in (dump.cell if dump else ()):
        knob = SYSCTL_KNOBS[key]
        if knob.since and tuple(map(int, knob.since.split("."))) > tuple(map(int, series.split("."))):
            lines.append(f"{knob.sysctl} = {value}: Linux {series} does not have it (since {knob.since})")
        elif value != knob.kernel_default or key == "tcp_retries2":
            kept[key] = value
    return kept, lines


def yours_of(incident: Incident, series: str, driver: DriverImport | None = None) -> tuple[dict[str, Any], list[str]]:
    """(the operator's cell as a scenario writes it, with `driver`'s settings (None: the first
    application's), lines)."""
    driver, dump = driver or incident.driver, incident.sysctl
    client = driver.client if driver else "pymysql"
    yours: dict[str, Any] = {"client": client} if client != "pymysql" else {}
    if driver and driver.settings:
        yours[client] = dict(driver.settings)
    yours.update(dict(driver.cell) if driver else {})
    sysctls, dropped = cell_sysctls(dump, series)
    yours.update(sysctls)
    return yours, dropped


def plane_of(incident: Incident, lines: list[str]) -> tuple[str, dict[str, Any]]:
    """(control plane, its settings) the incident's director file gives."""
    if incident.haproxy:
        return "haproxy", dict(incident.haproxy.settings)
    control = dict(incident.keepalived.settings) if incident.keepalived else {}
    if control.pop("vrrp", None):
        lines.append("vrrp_instance: a backup director matters when the director fails; the replayed death is "
                     "the database's, so one director runs")
        control.pop("advert_int", None)
        control.pop("preempt", None)
    return "keepalived", control


def question_of(incident: Incident, series: str, lines: list[str]) -> Question:
    yours, dropped = yours_of(incident, series)
    lines += dropped
    plane, settings = plane_of(incident, lines)
    linear = dict(incident.sysctl.cell).get("tcp_syn_linear_timeouts") if incident.sysctl else None
    if linear is None:
        linear = SYSCTL_KNOBS["tcp_syn_linear_timeouts"].kernel_default if _at_least(series, "6.5") else 0
    return Question.of(yours, plane=plane, plane_settings=tuple(settings.items()), syn_linear_timeouts=linear)


def _at_least(series: str, since: str) -> bool:
    return tuple(map(int, series.split("."))) >= tuple(map(int, since.split(".")))


def plan(incident: Incident, full: bool = False) -> Plan:
    """The replay's Plan: its scenario and what the model ranked."""
    moved = incident.incident_times.get("name_moved") if incident.incident_times else None
    if moved is not None:
        raise InvalidInput(f"{incident.folder}: the timeline says the database's name moved {moved:g} s after the "
                           "death (a managed database's failover): the replay runs its failover behind a VIP, not a name "
                           "that moves; make explain FROM=... answers it through the name's caches, make "
                           "scenario=dns-failover measures one")
    series, kernel_line = kernel_for(incident.sysctl.kernel_release if incident.sysctl else None)
    lines = [kernel_line]
    question = question_of(incident, series, lines)
    ranking = rank(question)
    lines += [f"not measured: {why}" for why in ranking.left_out]
    yours = question.cell_definition
    cells, variants = [{"name": YOURS, **copy.deepcopy(yours)}], {}
    for driver in incident.drivers[1:]:          # each other application behind the VIP: its own cell
        name = other_yours_name(driver)
        cells.append({"name": name, **yours_of(incident, series, driver)[0]})
        lines.append(f"{name}: {driver.source}'s {driver.client} with its own settings, beside yours "
                     f"({incident.drivers[0].source}'s {incident.drivers[0].client}); the cures are ranked for yours "
                     "(make explain answers each)")
    run, idle = _worth_running(ranking)
    lines += [f"not run: {row.cure.change}: the model says it saves nothing here (back {_back(row.answer)}, "
              f"yours {_back(ranking.yours)})" for row in idle]
    stand_in = stand_in_of(question)
    if stand_in:
        lines.append(f"the cures that change nothing of {question.cell.client} run the lab's probe with its read and "
                     f"connect timeouts ({_limits(stand_in)}): a {CLIENTS[question.cell.client].runtime} per cell would "
                     "saturate the guest")
    stood_in = {}
    for row in run:
        base = stand_in if stand_in and row.cure.layer not in (DRIVER, PAIR) else yours
        if base is stand_in:
            stood_in[row.cure.name] = f"the lab's probe with {question.cell.client}'s timeouts ({_limits(stand_in)})"
        cell = {**copy.deepcopy(base), "name": row.cure.name}
        for key, value in row.cure.cell:
            cell[key] = {**cell.get(key, {}), **value} if isinstance(value, dict) else value
        if row.cure.director:              # one director per change: a pair shares its change's
            variants[row.cure.variant] = dict(row.cure.director)
            cell["director"] = row.cure.variant
        cells.append(cell)
    control = dict(question.plane_settings)
    if variants:
        control["directors"] = variants
    observe, waited_out = observe_s(ranking, full)
    # The run ends once every cell the model says is back by then is back; the others are shown waiting.
    answers = {YOURS: ranking.yours, **{row.cure.name: row.answer for row in run}}
    for cell in cells:
        if cell["name"] in answers and outlasts(answers[cell["name"]], observe):
            cell["waited_for"] = False
    behind = "HAProxy" if question.plane == "haproxy" else "keepalived"
    definition = {
        "description": f"The replay of {incident.folder}: the operator's cell and {len(run)} cures, ranked "
                       f"by the model, through one silent death of the primary, behind {behind} with the operator's "
                       "timers.",
        "control": {question.plane: control},
        "load": {"probe": {"proto": "mysql", "interval_ms": INTERVAL_MS.get(CLIENTS[question.cell.client].runtime, 100)},
                 "writer": {"rate_per_s": 4}},
        "namespaces": "netns",
        "cells": cells,
        "warmup_s": 10,
        "steps": [{"fault": "silent_kill", "target": "db-primary"}],
        "observe_s": observe,
    }
    if incident.keepalived and incident.keepalived.idle_timeout_s:
        definition["lb"] = {"idle_timeout_s": incident.keepalived.idle_timeout_s}
    if not waited_out:
        lines.append(f"the run watches up to {observe} s after the death: every cure the model ranks ahead of your "
                     "own settings has ended by then, and the run ends as soon as each is back; your cell is shown "
                     "still waiting, its retransmissions checked against the model's ladder (FULL=1 waits it out)")
    return Plan(definition, series, tuple(lines), ranking, waited_out, stood_in)


def _back(found: Answer) -> str:
    """When the model says the client answers again, in words."""
    return seconds(found.back.expected_s if found.back is not None else None)


def other_yours_name(driver: DriverImport) -> str:
    """The cell of a second application's driver, named after its line: yours-l6 for file:6."""
    return f"{YOURS}-l{driver.source.rpartition(':')[2]}"


def stand_in_of(question: Question) -> dict[str, Any] | None:
    """The operator's cell as the lab's probe runs it (the driver's read and connect timeouts, the
    host's sysctls), for a client of a heavy runtime; None for a light one, which runs every cure."""
    cell, client = question.cell, CLIENTS[question.cell.client]
    if client.runtime not in STAND_IN_FOR:
        return None
    kept = {key: value for key, value in question.cell_definition.items() if key not in ("client", cell.client)}
    connect = client.connect_timeout_s(cell.client_settings)
    return {**kept, "read_timeout_s": cell.read_timeout_s, "connect_timeout_s": connect or 0}


def _limits(cell: dict[str, Any]) -> str:
    read, connect = cell["read_timeout_s"], cell["connect_timeout_s"]
    return f"read {f'{read:g} s' if read else 'none'}, connect {f'{connect:g} s' if connect else 'none: the SYN retries'}"


def _worth_running(ranking: Ranking) -> tuple[list[Ranked], list[Ranked]]:
    """(rows to run, rows left out): a client-side cure the model says saves nothing is not run; the
    load balancer's always are (what a change of the director does is the replay's point)."""
    def idle(row: Ranked) -> bool:
        return (row.cure.layer != DIRECTOR and row.saved_s is not None and row.saved_s < NO_HELP_S
                and row.answer.back is not None)
    return [r for r in ranking.rows if not idle(r)], [r for r in ranking.rows if idle(r)]


def _latest(found: Answer) -> float | None:
    """The latest the model says a cell is back (or, never back, errs); None: never."""
    return (found.back or found.error).latest_s if not found.never else None


def outlasts(found: Answer, observe: float) -> bool:
    """Whether the model says a cell is still waiting when an observation of `observe` s ends."""
    latest = _latest(found)
    return latest is None or latest > observe


def observe_s(ranking: Ranking, full: bool) -> tuple[int, bool]:
    """(seconds the run watches after the death, whether that covers the operator's own cell)."""
    yours = _latest(ranking.yours)
    ahead = [latest for row in ranking.rows for latest in [_latest(row.answer)]
             if latest is not None and (yours is None or latest < yours)]
    short = max(ahead, default=0.0) + MARGIN_S
    if yours is not None and (full or not ahead or yours <= short + FULL_MARGIN_S):
        return int(max(short, yours + MARGIN_S)), True
    if full or not ahead:
        return int(max(short, FULL_MARGIN_S)), True
    return int(short), False
