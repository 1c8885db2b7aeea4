"""What the kube-proxy control plane's logs say, as data (pure): the EndpointSlice writes the
kube-api container logged (images/kube/kube-endpoints), the syncs kube-proxy logged (klog:
"SyncProxyRules complete" in nftables mode, "syncProxyRules complete" in ipvs mode, each with
its elapsed time), and the director changes they make together."""
import dataclasses
import datetime
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..measure import director_table
from ..measure.health_checks import stamp
from ..measure.sample_blocks import blocks
from ..topology import DIRECTOR
from .base import DirectorChange

# klog's header: severity, month and day, time of day (the process's clock, UTC in the lab)
KLOG_RE = re.compile(r"\b[IWEF](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6})\s+\d+ \S+\] (.*)$")
SYNC_RE = re.compile(r'"[Ss]yncProxyRules complete".*?elapsed="([^"]+)"')
SERVICE_CHAIN_RE = re.compile(r"chain service-\w+-(\S+) \{")
ENDPOINT_RE = re.compile(r"goto endpoint-\w+-\S+?__([0-9.]+)/(\d+)")
MODE_RE = re.compile(r'"Using (ipvs|nftables|iptables) Proxier"')
DURATION_RE = re.compile(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)")
UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


@dataclasses.dataclass(frozen=True)
class Write:
    service: str
    endpoints: tuple           # ((address, {ready, serving, terminating}), ...)
    applying_t: float
    applied_t: float


@dataclasses.dataclass(frozen=True)
class Sync:
    start_t: float
    end_t: float


def go_duration(text: str) -> float:
    """'45.2ms', '1m2.5s', '850µs' -> seconds."""
    found = DURATION_RE.findall(text)
    if not found or "".join(n + u for n, u in found) != text:
        raise ValueError(f"not a Go duration: {text!r}")
    return sum(float(n) * UNITS[u] for n, u in found)


def parse_endpoint(text: str) -> tuple[str, dict[str, bool]]:
    """kube-endpoints' form, '10.213.2.21:ready=0,terminating=1' -> (address, conditions)."""
    address, _, given = text.partition(":")
    conditions = {"ready": True, "serving": True, "terminating": False}
    for pair in filter(None, given.split(",")):
        key, _, value = pair.partition("=")
        conditions[key] = value == "1"
    return address, conditions


def parse_writes(text: str) -> list[Write]:
    """[Write] from the kube-api container's log, in time order."""
    writes = []
    for line in text.splitlines():
        start = line.find('{"kube_endpoints"')
        if start < 0:
            continue
        try:
            record = json.loads(line[start:])
        except ValueError:
            continue
        writes.append(Write(record["service"], tuple(parse_endpoint(e) for e in record["endpoints"]),
                            record["applying_t"], record["applied_t"]))
    return sorted(writes, key=lambda w: w.applying_t)


def klog_time(line: str) -> float | None:
    """The unix time of a klog line; the year comes from Docker's stamp on the same line."""
    m, docker_t = KLOG_RE.search(line), stamp(line)
    if not m or docker_t is None:
        return None
    year = datetime.datetime.fromtimestamp(docker_t, datetime.timezone.utc).year
    month, day, hour, minute, second, micro = (int(g) for g in m.groups()[:6])
    at = datetime.datetime(year, month, day, hour, minute, second, micro, tzinfo=datetime.timezone.utc)
    return at.timestamp()


def parse_syncs(text: str) -> list[Sync]:
    """[Sync] kube-proxy logged: each complete IPv4 sync, from its start (its end less its elapsed)."""
    syncs = []
    for line in text.splitlines():
        if 'ipFamily="IPv6"' in line:
            continue
        m, t = SYNC_RE.search(line), klog_time(line)
        if m and t is not None:
            syncs.append(Sync(round(t - go_duration(m.group(1)), 6), t))
    return sorted(syncs, key=lambda s: s.start_t)


def parse_nft_table(text: str) -> dict[str, dict[str, int]]:
    """{service port ('default/lab/tcp/mysql'): {endpoint: 1}} of kube-proxy's nftables table, as
    director_table.parse_table gives IPVS's: the endpoints each service chain sends new flows to."""
    table: dict[str, dict[str, int]] = {}
    chain = None
    for line in text.splitlines():
        m = SERVICE_CHAIN_RE.search(line)
        if m:
            chain = table.setdefault(m.group(1), {})
            continue
        if line.strip() == "}":
            chain = None
        elif chain is not None:
            for address, port in ENDPOINT_RE.findall(line):
                chain[f"{address}:{port}"] = 1
    return table


def mode(text: str) -> str | None:
    m = MODE_RE.search(text)
    return m.group(1) if m else None


def describe(write: Write, before: Mapping[str, Mapping[str, bool]]) -> tuple[str, str | None]:
    """(what the write changed, in words; the address it took out of service or None)."""
    now = dict(write.endpoints)
    words, taken_out = [], None
    for address, conditions in write.endpoints:
        was = before.get(address)
        if not conditions["ready"] and (was is None or was["ready"]):
            state = "terminating" if conditions["terminating"] else "not ready"
            words.append(f"{address} {state}")
            taken_out = taken_out or address
        elif conditions["ready"] and (was is None or not was["ready"]):
            words.append(f"{address} ready")
    for address, was in before.items():
        if address not in now:
            words.append(f"{address} removed")
            if was["ready"]:
                taken_out = taken_out or address
    return ", ".join(words) or "no change", taken_out


def changes(writes: Sequence[Write], syncs: Sequence[Sync], ports: Mapping[str, int]) -> list[DirectorChange]:
    """[DirectorChange] per write: the first sync that started after it was sent (the sync that
    programmed it), the change landing within that sync; a write no sync followed is left out."""
    found: list[DirectorChange] = []
    last: dict[str, dict[str, dict[str, bool]]] = {}
    for write in writes:
        what, taken_out = describe(write, last.get(write.service, {}))
        last[write.service] = dict(write.endpoints)
        sync = next((s for s in syncs if s.start_t >= write.applying_t), None)
        if sync is None:
            continue
        port = ports.get(write.service)
        after = (max(0.0, sync.start_t - write.applied_t) * 1000, (sync.end_t - write.applying_t) * 1000)
        why = f"EndpointSlice write; kube-proxy programmed it {after[0]:.0f}-{after[1]:.0f} ms after"
        took_s = round(sync.end_t - sync.start_t, 6)
        found.append(DirectorChange(sync.start_t, took_s, f"{write.service}: {what}", why, DIRECTOR,
                                    f"{taken_out}:{port}" if taken_out else "", cause_t=write.applying_t,
                                    took_s=took_s))
    return found


def parse_nft_samples(text: str) -> list[tuple[float, object]]:
    """[(t, table)] of kube-proxy's nftables table as the director table sampler wrote it."""
    return blocks(text, parse_nft_table)


def bounded_by_table(change: DirectorChange, samples: Sequence[tuple[float, Any]]) -> DirectorChange:
    """Narrowed by the director's table as sampled (IPVS's or kube-proxy's nftables), where it shows the backend at weight > 0
    after the sync began (the change came later) or gone before it ended (sooner)."""
    if not change.backend or not samples:
        return change
    start, end = change.t, change.t + change.uncertainty_s
    serving = [t for t, table in samples if start <= t <= end and director_table.serves(table, change.backend)]
    gone = [t for t, table in samples if start <= t <= end and not director_table.serves(table, change.backend)]
    start = max([start] + serving)
    end = min([end] + [t for t in gone if t >= start])
    return dataclasses.replace(change, t=start, uncertainty_s=round(end - start, 6))
