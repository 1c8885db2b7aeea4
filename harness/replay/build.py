"""An incident's folder (harness/imports) -> the failover that replays it: the operator's own cell
(their driver and its settings, their host's TCP sysctls) beside the cures (cures.py) in one
failover, behind keepalived with the operator's timers, on the Debian kernel series nearest the
one the dump came from. Pure: a scenario definition and the lines that say what was chosen."""
import copy
import re

from ..control.haproxy_settings import HaproxySettings
from ..measure import kernel_model
from ..report.explain_haproxy import ending
from ..measure.sysctl_knobs import SYSCTL_KNOBS
from ..settings.targets import KNOWN_SERIES
from .cures import cures_for, haproxy_cures

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
    cures, left_out = cures_of(yours, incident.haproxy.settings if incident.haproxy else None)
    lines += [f"not measured: {why}" for why in left_out]
    cells = [copy.deepcopy(yours)] + [_with_cure(yours, cure) for cure in cures]
    if incident.haproxy:
        control = dict(incident.haproxy.settings)
        control["directors"] = haproxy_cures(control)[1]
        plane, behind, observe = "haproxy", "HAProxy", haproxy_observe_s(yours, control)
    else:
        control = dict(keepalived.settings) if keepalived else {}
        if control.pop("vrrp", None):
            lines.append("vrrp_instance: a backup director matters when the director fails; the replayed death is "
                         "the database's, so one director runs")
            control.pop("advert_int", None)
            control.pop("preempt", None)
        control["directors"] = {"reset": {"expire_nodest_conn": 1}}
        plane, behind, observe = "keepalived", "keepalived", observe_s(yours, control)
    definition = {
        "description": f"The replay of {incident.folder}: the operator's cell and {len(cures)} cures through one "
                       f"silent death of the primary, behind {behind} with the operator's timers.",
        "control": {plane: control},
        "load": {"probe": {"proto": "mysql", "interval_ms": 100}, "writer": {"rate_per_s": 4}},
        "namespaces": "netns",
        "cells": cells,
        "warmup_s": 10,
        "steps": [{"fault": "silent_kill", "target": "mysql-primary"}],
        "observe_s": observe,
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


def cures_of(yours, haproxy_settings=None):
    """(cures, [why one is left out]) for the operator's cell: the client's own, and behind HAProxy
    HAProxy's (an IPVS director's reset does not apply there)."""
    director = "haproxy" if haproxy_settings is not None else "keepalived"
    cures, left_out = cures_for(yours["client"], yours.get("tcp_retries2", 15), director)
    if haproxy_settings is not None:
        cures += haproxy_cures(haproxy_settings)[0]
    return cures, left_out


def haproxy_observe_s(yours, control):
    """Long enough for the operator's own cell behind HAProxy: the first of HAProxy's limits (its
    markdown with shutdown-sessions, its timeouts, the proxy host's kernel), or the client's own."""
    settings = HaproxySettings(**{k: v for k, v in control.items() if k != "directors"})
    return int(ending(settings, yours.get("read_timeout_s", 0))[0][0] + 60)


def observe_s(yours, control):
    """Long enough for the operator's own cell: keepalived's worst notice, then its kernel budget."""
    notice = (control.get("delay_loop", 60) + (control.get("retry", 1) + 1) * control.get("connect_timeout", 5)
              + control.get("retry", 1) * control.get("delay_before_retry", 1))
    hang = kernel_model.for_knobs(yours.get("tcp_retries2", 15), 0).latest_s
    return int(notice + hang + 60)
