"""`make plan scenario=ID|FILE`: what a run would do, resolved, with nothing started: the scenario
with make's overrides applied, where it runs, its cells and steps, the model's expectation, the
keepalived.conf its director would get, and how long its own clock runs."""
import re
from collections.abc import Mapping

from .control import control_plane
from .databases import database
from .lab import DEFAULT_GUEST_KERNEL, HOST, planned_addresses
from .load.clients import DEFAULT_CLIENT
from .report import expectation
from .scenario import BurstScenario, Cell, Scenario
from .scenario.control import needs_ipvs

INTERPOLATION = re.compile(r"\$\{(\w+):-([^}]*)\}")
# What a run costs besides the scenario's own clock, as measured here (README: the seed's phases,
# 2026-11-28): the lab's start and first answers, env.json, the cleanup and the report.
OVERHEAD_S = {"host": 45, "guest": 60}


def lines(scenario: Scenario | BurstScenario, kernel: str, host_has_ipvs: bool, environ: Mapping[str, str]) -> list[str]:
    """The plan as text lines; kernel: KERNEL= as given (host or a Debian kernel)."""
    out = [f"scenario: {scenario.id} ({scenario.kind})", f"  {' '.join(scenario.description.split())[:300]}"]
    out += where(scenario, kernel, host_has_ipvs)
    if isinstance(scenario, BurstScenario):
        return out + [f"a burst of {scenario.connections} connections against {len(scenario.servers)} server(s) "
                      f"(accept delay {scenario.accept_delay_ms} ms), {len(scenario.cells)} cell(s)"]
    out.append(f"database: {scenario.database} ({database(scenario.database).title})"
               f"; replication {scenario.replication.mode}")
    out.append(f"control plane: {scenario.control}"
               + (f" ({', '.join(f'{k}={v}' for k, v in scenario.control_settings)})" if scenario.control_settings else ""))
    out.append(f"datapath: {scenario.datapath}; cell namespaces: {scenario.cell_namespaces}")
    out.append(f"loads: probe every {scenario.probe.interval_ms:g} ms" + "".join(
        f", {name}" for name in ("sysbench", "wrk", "connect") if getattr(scenario, name))
        + (f", writer {scenario.writer.rate_per_s:g}/s{' (by default; WRITER=0: none)' if scenario.writer.by_default else ''}"
           if scenario.writer else ""))
    out.append(f"cells ({len(scenario.cells)}):")
    probe = "libpq" if database(scenario.database).wire_protocol == "postgres" else DEFAULT_CLIENT
    out += [f"  {cell.name:<28} {cell_knobs(cell, probe)}" for cell in scenario.cells]
    out.append("steps:")
    out += [f"  {step.describe()}" for step in scenario.steps]
    out.append(f"model: {expectation.expectation(scenario)}")
    out.append(clock_line(scenario, "host" if kernel == HOST and not guest_needed(scenario, host_has_ipvs) else "guest"))
    out += keepalived_files(scenario, environ)
    return out


def clock_line(scenario: Scenario, place: str) -> str:
    """How long the run's own clock goes: warm-up, steps, then until every cell is back (the model's
    slowest, when no control plane decides it) or the observation limit."""
    steps_s = sum(step.seconds for step in scenario.steps)
    _, expected = expectation.expected_errors_s(scenario)
    if expected and scenario.control == "manual":
        observed = min(max(expected) + 5, scenario.observe_s)
        until = f"until every cell is back (the model's slowest: ~{max(expected):.3g} s), at most {scenario.observe_s:g} s"
    else:
        observed, until = scenario.observe_s, f"up to {scenario.observe_s:g} s"
    total = scenario.warmup_s + steps_s + observed + OVERHEAD_S[place]
    return (f"clock: {scenario.warmup_s:g} s warm-up, {steps_s:g} s of steps, then {until}: about {total:.0f} s "
            f"with the lab's start and cleanup on {'this host' if place == 'host' else 'a resumed guest'} "
            "(a guest's first boot of a kernel: minutes more)")


def guest_needed(scenario: Scenario, host_has_ipvs: bool) -> bool:
    return needs_ipvs(scenario.control, scenario.control_settings) and not host_has_ipvs


def where(scenario: Scenario | BurstScenario, kernel: str, host_has_ipvs: bool) -> list[str]:
    if kernel != HOST:
        return [f"where: a QEMU guest booting Debian's {kernel} kernel"]
    if isinstance(scenario, Scenario) and scenario.control != "manual" and guest_needed(scenario, host_has_ipvs):
        return [f"where: a QEMU guest booting Debian's {DEFAULT_GUEST_KERNEL} (control: {scenario.control} programs "
                "IPVS, which this host's kernel lacks)"]
    return ["where: this host (KERNEL=host)"]


def cell_knobs(cell: Cell, probe: str = DEFAULT_CLIENT) -> str:
    """A cell's client and knobs in a line; probe: what the lab's probe is on the scenario's engine
    (PyMySQL, or libpq on PostgreSQL)."""
    knobs = [f"{k}={v}" for k, v in cell.sysctls]
    if cell.tcp_user_timeout_ms:
        knobs.append(f"TCP_USER_TIMEOUT={cell.tcp_user_timeout_ms} ms")
    if cell.keepalive:
        knobs.append("keepalive " + "/".join(map(str, cell.keepalive)))
    if cell.read_timeout_s:
        knobs.append(f"read timeout {cell.read_timeout_s:g} s")
    if cell.connect_timeout_s is not None:
        knobs.append(f"connect timeout {cell.connect_timeout_s:g} s" if cell.connect_timeout_s
                     else "connect timeout none (the SYN retries)")
    if cell.target_session_attrs:
        knobs.append(f"target_session_attrs={cell.target_session_attrs}")
    if cell.director:
        knobs.append(f"through director-{cell.director}")
    if cell.hosts:
        knobs.append("hosts " + ", ".join(cell.hosts) + " in that order")
    knobs += [f"{k}={v}" for k, v in cell.client_settings]
    pool = ""
    if cell.pool:
        pool = f" through {cell.pool}" + (f" ({', '.join(f'{k}={v}' for k, v in cell.pool_settings)})"
                                          if cell.pool_settings else "")
    client = probe if cell.client == DEFAULT_CLIENT else cell.client
    return f"{client}{pool}: " + (", ".join(knobs) or "kernel defaults")


def keepalived_files(scenario: Scenario, environ: Mapping[str, str]) -> list[str]:
    """Each keepalived.conf the control plane would write, the lab's addresses filled in."""
    plane = control_plane(scenario.control, scenario.control_settings)
    services = plane.services(planned_addresses(), database(scenario.database), scenario.servers_used())
    out = []
    for name, service in sorted(services.items()):
        conf = service.get("environment", {}).get("KEEPALIVED_CONF")
        if conf:
            filled = INTERPOLATION.sub(lambda m: environ.get(m.group(1)) or m.group(2), conf)
            out += [f"keepalived.conf of {name}:", *(f"  {line}" for line in filled.splitlines())]
    return out
