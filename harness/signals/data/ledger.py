"""Data accounting: what the writer (images/client/writer.py) was told about each write, beside
what each database server holds after the run (store.RunDir.ledger). Pure functions."""
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .record import Accounting, Refused, Second

OUTCOMES = ("ack", "failed", "in_doubt")


def parse_writes(text: str) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """(attempts, end record or None): the writer's lines, in order."""
    attempts, end = [], None
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue                       # a line cut short when the writer was stopped
        if "end" in record:
            end = record
        elif record.get("outcome") in OUTCOMES:
            attempts.append(record)
    return attempts, end


def parse_ledger(text: str) -> dict[int, int] | None:
    """{seq: copies} a server held, or None when it could not be read ('# unreadable: ...')."""
    if text.startswith("# unreadable"):
        return None
    rows = {}
    for line in text.splitlines():
        seq, copies = line.split("\t")
        rows[int(seq)] = int(copies)
    return rows


def per_second(attempts: Sequence[Mapping[str, Any]], lost_seqs: Iterable[int], t_fault: float) -> list[Second]:
    """[{'t': s, 'ack': n, 'failed': n, 'in_doubt': n, 'lost': n}]: attempts by the second (after
    t_fault) they were sent in, and of the acknowledged ones those the new primary lacks."""
    lost, seconds = set(lost_seqs), dict[int, dict[str, int]]()
    for record in attempts:
        second = seconds.setdefault(int((record["t0"] - t_fault) // 1), dict.fromkeys((*OUTCOMES, "lost"), 0))
        second[record["outcome"]] += 1
        if record["outcome"] == "ack" and record["seq"] in lost:
            second["lost"] += 1
    return [{"t": t, "ack": counts["ack"], "failed": counts["failed"], "in_doubt": counts["in_doubt"], "lost": counts["lost"]}
            for t, counts in sorted(seconds.items())]


def unwritten_after(attempts: Sequence[Mapping[str, Any]], t_fault: float, t_end: float) -> tuple[float, bool, float]:
    """(seconds, resumed, from_s): the longest stretch from t_fault to t_end in which the writer got
    no write acknowledged, whether an acknowledged write ended it (False: it ran to t_end), and when
    it began (s after t_fault). A write in flight that never got its answer leaves no line, so its
    absence is the writer stuck. The longest, not the first: the fault's step may take seconds to
    land, and writes acknowledged after its recorded time but before it landed are not the writer
    back (a replay, 2026-12-04: two writes acknowledged 0.16 and 0.38 s after the fault, then none
    for the run's last 159.6 s)."""
    acked = sorted(r["t1"] for r in attempts if r["outcome"] == "ack" and t_fault < r["t1"] <= t_end)
    edges = [t_fault, *acked, max(t_end, t_fault)]
    start, end = max(zip(edges, edges[1:]), key=lambda gap: gap[1] - gap[0])
    resumed = bool(acked) and end != edges[-1]
    return round(end - start, 3), resumed, round(start - t_fault, 3)


def refused(attempts: Sequence[Mapping[str, Any]], t_fault: float) -> list[Refused]:
    """Writes a server answered with an error (a read-only server's, a constraint's): nothing
    committed. [{'error', 'server', 'count', 'first_s', 'last_s'}] by error and server, the
    seconds when the first and last were sent, from t_fault (before it: negative). A failed
    attempt without a server never had a connection: no server refused it."""
    groups: dict[tuple[str, str], list[float]] = {}
    for record in attempts:
        if record["outcome"] == "failed" and record.get("server"):
            groups.setdefault((record.get("error") or "?", record["server"]), []).append(record["t0"] - t_fault)
    return [{"error": error, "server": server, "count": len(sent), "first_s": round(min(sent), 3),
             "last_s": round(max(sent), 3)} for (error, server), sent in sorted(groups.items(), key=lambda g: min(g[1]))]


SEMI_SYNC_PREFIXES = ("Rpl_semi_sync_source_", "Rpl_semi_sync_master_", "Rpl_semi_sync_replica_",
                      "Rpl_semi_sync_slave_")


def parse_semi_sync(text: str) -> dict[str, int | str] | None:
    """A server's primary-side semi-sync counters by their engine-neutral names ({'no_times': 1,
    'no_tx': 40, 'yes_tx': 300, 'status': 'ON', ...}), or None when it could not be read."""
    if text.startswith("# unreadable") or not text.strip():
        return None
    status = {}
    for line in text.splitlines():
        name, _, value = line.partition("\t")
        for prefix in SEMI_SYNC_PREFIXES[:2]:
            if name.startswith(prefix):
                key = name[len(prefix):].lower()
                status[key] = int(value) if value.isdigit() else value
    return status


def account(attempts: Sequence[Mapping[str, Any]], new_primary: Mapping[int, int] | None,
            old_primary: Mapping[int, int] | None = None) -> Accounting:
    """What became of the writes. attempts: the writer's records; new_primary / old_primary:
    {seq: copies} of the server that took the writes after the failover and the one before
    (None: not read). lost: acknowledged seqs the new primary lacks; in_doubt_committed: seqs
    whose every attempt ended in doubt that the new primary holds anyway; duplicates: seqs held
    more than once (a retry of a write that had committed); only_on_old_primary: seqs the old
    primary holds and the new one does not."""
    by_seq: dict[int, list[str]] = {}
    for record in attempts:
        by_seq.setdefault(record["seq"], []).append(record["outcome"])
    acked = sorted(seq for seq, outcomes in by_seq.items() if "ack" in outcomes)
    in_doubt = sorted(seq for seq, outcomes in by_seq.items() if "ack" not in outcomes and "in_doubt" in outcomes)
    counts = {o: sum(r["outcome"] == o for r in attempts) for o in OUTCOMES}
    result: Accounting = {
        "writes": len(by_seq), "attempts": {"ack": counts["ack"], "failed": counts["failed"], "in_doubt": counts["in_doubt"]},
        "acknowledged": len(acked), "in_doubt": len(in_doubt),
        "never_written": sum(1 for outcomes in by_seq.values() if set(outcomes) == {"failed"}),
        "retried": sum(1 for outcomes in by_seq.values() if len(outcomes) > 1), "read_back": False}
    if new_primary is None:
        return result
    lost = [seq for seq in acked if seq not in new_primary]
    result["read_back"], result["lost"], result["lost_seqs"] = True, len(lost), lost
    result["in_doubt_committed"] = sum(1 for seq in in_doubt if seq in new_primary)
    result["duplicates"] = sum(1 for copies in new_primary.values() if copies > 1)
    result["duplicate_seqs"] = sorted(seq for seq, copies in new_primary.items() if copies > 1)
    result["unknown_rows"] = sorted(seq for seq in new_primary if seq not in by_seq)
    if old_primary is not None:
        result["only_on_old_primary"] = sorted(seq for seq in old_primary if seq not in new_primary)
    return result
