"""What differs between the kernels runs ran on: HZ, the base RTO each run measured on the lab's
path, and the TCP and IPVS sysctls a new network namespace starts with (env.json's
kernel_facts), each difference said with what it does to the lab's figures."""
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from .summary_record import RunSummary
from .sysctl_knobs import SYSCTL_KNOBS

# The sysctls that move a failover's figures, and how (the rest are listed as other differences).
BEARING = {
    "tcp_retries2": "the retransmission budget of an established flow: a blackholed client's detect time",
    "tcp_retries1": "when the kernel asks the route again during retransmissions (not the budget)",
    "tcp_syn_retries": "how many SYNs a connect sends: a reconnect into a dead backend",
    "tcp_syn_linear_timeouts": "SYN retransmissions kept 1 s apart before backing off: the connect ladder",
    "tcp_rto_max_ms": "the largest RTO: the cap of the ladder and the budget's unit past the doubling",
    "tcp_rto_min_us": "the smallest RTO: the base of the ladder",
    "tcp_keepalive_time": "an idle flow's first probe",
    "tcp_keepalive_intvl": "the interval between keepalive probes",
    "tcp_keepalive_probes": "how many unanswered probes end an idle flow",
    "tcp_orphan_retries": "retransmissions of a closed socket's last data",
    "tcp_thin_linear_timeouts": "thin streams retransmit at a fixed RTO at first (off by default)",
    "tcp_early_retrans": "tail loss probes: an extra retransmission before the RTO fires",
    "tcp_recovery": "RACK loss detection",
    "tcp_frto": "spurious-RTO detection",
    "vs/expire_nodest_conn": "a flow to a deleted backend: dropped (0) or expired at its next packet (1)",
    "vs/expire_quiescent_template": "persistence templates of a weight-0 backend",
    "vs/conntrack": "IPVS flows kept in conntrack",
    "vs/sloppy_tcp": "IPVS picks up flows it did not see open",
}


# Defaults the kernel sizes from the machine (memory, CPUs), not from its version.
SIZED_BY_THE_MACHINE = {"vs/sync_qlen_max", "tcp_ehash_entries", "tcp_max_syn_backlog", "tcp_max_tw_buckets",
                        "tcp_mem", "vs/conn_max"}


def since_note(name: str) -> str:
    knob = SYSCTL_KNOBS.get(name)
    return f" (came with Linux {knob.since})" if knob and knob.since else ""


def differences(facts_by_label: Mapping[str, Mapping[str, Any] | None]) -> list[dict[str, Any]]:
    """[{"name", "values": {label: value or None (absent)}, "bearing": text or None}] for every
    sysctl whose default is not the same on all kernels (absent counts as a value); bearing ones
    first. facts_by_label: {label: env.json's kernel_facts or None (a run before they were kept)}."""
    known = {label: facts["sysctl_defaults"] for label, facts in facts_by_label.items() if facts}
    if len(known) < 2:
        return []
    with_ipvs = {label for label, defaults in known.items() if any(name.startswith("vs/") for name in defaults)}
    rows: list[dict[str, Any]] = []
    if with_ipvs and with_ipvs != set(known):
        rows.append({"name": "IPVS", "values": {label: "yes" if label in with_ipvs else None for label in known},
                     "bearing": "the director's datapath: ipvsadm where the kernel has IPVS, nftables where not; "
                                "IPVS's own sysctls are compared only between the kernels that have it"})
    for name in sorted(set().union(*known.values())):
        kernels = with_ipvs if name.startswith("vs/") else set(known)
        values = {label: known[label].get(name) if label in kernels else "no IPVS" for label in known}
        if len({values[label] for label in kernels}) > 1:
            bearing = BEARING.get(name)
            if name in SIZED_BY_THE_MACHINE:
                bearing = (bearing + "; " if bearing else "") + "sized from the machine's memory, not set by the version"
            rows.append({"name": name, "values": values,
                         "bearing": bearing + since_note(name) if bearing else None})
    return sorted(rows, key=lambda row: (row["bearing"] is None or "sized from" in row["bearing"], row["name"]))


def base_rto_ms(summary: RunSummary) -> float | None:
    """The median base RTO the run's cells measured on the lab's path (ms), or None."""
    measured = [c.predicted.base_rto_s for c in summary.cells if c.predicted.base_rto_s]
    return round(statistics.median(measured) * 1000, 1) if measured else None


def facts_table(runs: Sequence[tuple[str, RunSummary, Mapping[str, Any]]]) -> dict[str, Any]:
    """runs: [(label, summary, env)]: {"hz", "base_rto_ms", "sysctls"} across them."""
    facts = {label: env.get("kernel_facts") for label, _, env in runs}
    return {"hz": {label: (facts[label] or {}).get("hz") or (env.get("where") or {}).get("hz") for label, _, env in runs},
            "base_rto_ms": {label: base_rto_ms(summary) for label, summary, _ in runs},
            "kept": [label for label, f in facts.items() if f],
            "sysctls": differences(facts)}
