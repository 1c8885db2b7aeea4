"""The probe: one long-lived connection per cell, an operation every interval, JSON per op
(images/client/probe.py; measure/probe_log.py reads its output). The probes of one container run
as one group: one exec, one interpreter, a fork per cell with that cell's socket options."""
import json
from collections.abc import Iterable
from typing import Any

from .specs import LoadedCell, LoadedScenario

PROCESS = "/usr/local/bin/probe"        # what pkill -f matches to stop it (the group and its forks)
SOCKOPTS_LIBRARY = "/usr/local/lib/blackhole/libsockopts.so"
IDLE_LEAD_S = 2.0                       # an idle cell goes quiet this long before the fault is due
IDLE_COMMAND = "idle\n"                  # written to an idle cell's probe, on its stdin, at that moment
FIRST_CONNECT_S = 300.0                 # it may start before the servers answer; it waits this long for them
# The first connection's first 30 operations come 10 ms apart: srtt moves 1/8 of the way per RTT
# sample, so ~30 of them take the handshake's slow first answers out of the RTO (0.3 s, not 3 s).
SETTLE_OPS, SETTLE_INTERVAL_MS = 30, 10
GROUP_COMMAND = ("env", f"LD_PRELOAD={SOCKOPTS_LIBRARY}", "probe", "--group")


def settings(scenario: LoadedScenario, cell: LoadedCell, target: tuple[str, int | None], duration_s: float,
             netns: str | None = None, phase: float = 0.0) -> dict[str, Any]:
    """{"cell", "env", "argv", "netns"} of the cell's probe against target, (host, port or None): libsockopts applies env's socket options
    at each connect. An idle cell goes quiet when told (IDLE_COMMAND) and stays quiet for idle_s.
    netns: the file of the network namespace its probe enters first (None: the container's own).
    phase: where in the interval (0 to 1) its ticks fall, against probes started with it: probes
    ticking together would all meet the fault at the same point of their interval, and a grid
    would measure one phase of it, not its spread (the model expects half an interval)."""
    host, port = target
    argv = [*cell_argv(scenario.probe_protocol, scenario.probe.interval_ms, cell, host, duration_s,
                       phase * scenario.probe.interval_ms), "--stop-on-eof", *(["--port", str(port)] if port else [])]
    return {"cell": cell.name, "env": cell.socket_env(), "argv": argv, "netns": netns}


def cell_argv(proto: str, interval_ms: float, cell: LoadedCell, host: str, duration_s: float,
              phase_ms: float = 0.0) -> list[str]:
    """The probe's options for a cell (scenario.model.Cell) against host."""
    idle = ["--idle-s", f"{cell.idle_s:g}"] if cell.idle_s else []
    return ["--proto", proto, "--host", host, "--interval-ms", f"{interval_ms:g}", "--duration-s", f"{duration_s:.0f}",
            "--read-timeout-s", f"{cell.read_timeout_s:g}", "--first-connect-s", f"{FIRST_CONNECT_S:g}",
            "--settle-ops", f"{SETTLE_OPS}", "--settle-interval-ms", f"{SETTLE_INTERVAL_MS:g}",
            "--phase-ms", f"{phase_ms:.0f}", *idle,
            *(["--connect-timeout-s", f"{cell.connect_timeout_s:g}"] if cell.connect_timeout_s is not None else []),
            *(["--target-session-attrs", cell.target_session_attrs] if cell.target_session_attrs else []),
            *(["--user", cell.database_user] if cell.account != "shared" else [])]


def group_input(cells_settings: Iterable[dict[str, Any]]) -> str:
    """The group's first stdin line: every cell's settings."""
    return json.dumps(list(cells_settings)) + "\n"


def demultiplex(line: str) -> tuple[str, str] | None:
    """(cell, its probe's line) of a line of the group's output; None for a line of no cell."""
    cell, tab, text = line.rstrip("\n").partition("\t")
    return (cell, text) if tab else None
