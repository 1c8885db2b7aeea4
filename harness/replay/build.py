"""An incident's folder (harness/imports) -> the failover that replays it: the operator's own cell
(their driver and its settings, their host's TCP sysctls) beside the cures (cures.py) in one
failover, behind keepalived with the operator's timers, on the Debian kernel series nearest the
one the dump came from. Pure: a scenario definition and the lines that say what was chosen."""
import copy
import re

from ..errors import InvalidInput
from ..measure import kernel_model
from ..measure.sysctl_knobs import SYSCTL_KNOBS
from ..settings.targets import KNOWN_SERIES
from .cures import cures_for

YOURS = "yours"
DEFAULT_SERIES = "6.12"
SERIES_OF_RELEASE = re.compile(r"^(\d+)\.(\d+)")


def kernel_for(release):
    """(series, line): the Debian series a guest boots for the dump's kernel.osrelease."""
    m = SERIES_OF_RELEASE.match(release or "")
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


def cell_sysctls(dump, series):
    """The dump's client-side sysctls a new namespace would not have by itself, on that kernel."""
    kept, lines = {}, []
    for key, value in (dump.cell if dump else ()):
        knob = SYSCTL_KNOBS[key]
        if knob.since and tuple(map(int, knob.since.split("."))) > tuple(map(int, series.split("."))):
            lines.append(f"{knob.sysctl} = {value}: Linux {series} does not have it (since {knob.since})")
        elif value != knob.kernel_default or key == "tcp_retries2":
            kept[key] = value
    return kept, lines


def scenario(incident):
    """(scenario definition, kernel series, lines saying what was chosen) for the incident."""
    if incident.haproxy:
        raise InvalidInput(f"{incident.haproxy.source}: the replay runs its failover behind keepalived; a replay "
                           f"behind HAProxy is not built yet: make explain FROM={incident.folder}/ answers with "
                           "HAProxy's settings")
    driver, keepalived, dump = incident.driver, incident.keepalived, incident.sysctl
    series, kernel_line = kernel_for(dump.kernel_release if dump else None)
    lines = [kernel_line]
    client = driver.client if driver else "pymysql"
    yours = {"name": YOURS, "client": client}
    if driver and driver.settings:
        yours[client] = dict(driver.settings)
    yours.update(dict(driver.cell) if driver else {})
    sysctls, dropped = cell_sysctls(dump, series)
    yours.update(sysctls)
    lines += dropped
    cures, left_out = cures_for(client, yours.get("tcp_retries2", 15))
    lines += [f"not measured: {why}" for why in left_out]
    cells = [copy.deepcopy(yours)] + [_with_cure(yours, cure) for cure in cures]
    control = dict(keepalived.settings) if keepalived else {}
    if control.pop("vrrp", None):
        lines.append("vrrp_instance: a backup director matters when the director fails; the replayed death is the "
                     "database's, so one director runs")
        control.pop("advert_int", None)
        control.pop("preempt", None)
    control["directors"] = {"reset": {"expire_nodest_conn": 1}}
    definition = {
        "description": f"The replay of {incident.folder}: the operator's cell and {len(cures)} cures through one "
                       "silent death of the primary, behind keepalived with the operator's timers.",
        "control": {"keepalived": control},
        "load": {"probe": {"proto": "mysql", "interval_ms": 100}, "writer": {"rate_per_s": 4}},
        "namespaces": "netns",
        "cells": cells,
        "warmup_s": 10,
        "steps": [{"fault": "silent_kill", "target": "mysql-primary"}],
        "observe_s": observe_s(yours, control),
    }
    if keepalived and keepalived.idle_timeout_s:
        definition["lb"] = {"idle_timeout_s": keepalived.idle_timeout_s}
    return definition, series, lines


def _with_cure(yours, cure):
    cell = {**copy.deepcopy(yours), **{k: v for k, v in cure.cell.items() if not isinstance(v, dict)}, "name": cure.name}
    for key, value in cure.cell.items():
        if isinstance(value, dict):
            cell[key] = {**yours.get(key, {}), **value}
    return cell


def observe_s(yours, control):
    """Long enough for the operator's own cell: keepalived's worst notice, then its kernel budget."""
    notice = (control.get("delay_loop", 60) + (control.get("retry", 1) + 1) * control.get("connect_timeout", 5)
              + control.get("retry", 1) * control.get("delay_before_retry", 1))
    hang = kernel_model.for_knobs(yours.get("tcp_retries2", 15), 0).latest_s
    return int(notice + hang + 60)
