"""Data accounting (load.writer): sequence-numbered writes through the VIP, each acknowledged,
failed or in doubt as the writer saw it, beside what the database servers hold after the run:
acknowledged writes the new primary lacks (lost), writes in doubt that committed, duplicates
left by retries, and the replica's position when it was promoted."""
from ..faults.promote_replica import PromoteReplica
from ..load import writer
from ..measure import ledger
from ..topology import PROTOCOL_PORTS, SERVICE_SERVERS
from .base import Signal, first_cell_load


class DataAccounting(Signal):
    name = "data"

    def loads(self, plan):
        s = plan.scenario
        return [first_cell_load(plan, s.writer, plan.run.writer_log(), writer, PROTOCOL_PORTS["mysql"])] \
            if s.writer else []

    def summarize_run(self, context):
        s = context.scenario
        if not s.writer:
            return {}
        run = context.run
        attempts, _ = ledger.parse_writes(run.read(run.writer_log()))
        new, old, position = servers_after(context.events, attempts)
        held = {server: ledger.parse_ledger(run.read(run.ledger(server))) if run.ledger(server).exists() else None
                for server in (new, old) if server}
        accounting = ledger.account(attempts, held.get(new), held.get(old) if old else None)
        t_fault = getattr(context, "t_fault", None)
        in_doubt_at = [round(r["t0"] - t_fault, 3) for r in attempts
                       if r["outcome"] == "in_doubt" and t_fault is not None]
        first_primary = old or new
        semi_sync = ledger.parse_semi_sync(run.read(run.semi_sync_status(first_primary)))
        seconds = ledger.per_second(attempts, accounting.get("lost_seqs", []), t_fault) if t_fault is not None else []
        return {"per_second": seconds, "rate_per_s": s.writer.rate_per_s, "by_default": s.writer.by_default, "attempts_per_write": s.writer.attempts,
                "replication": s.replication.mode, "semi_sync_timeout_ms": s.replication.semi_sync_timeout_ms,
                "semi_sync_on_first_primary": semi_sync if s.replication.mode == "semi-sync" else None,
                "new_primary": new, "old_primary": old, "position_at_promotion": position,
                "unreadable": sorted(server for server, rows in held.items() if rows is None),
                "in_doubt_sent_at_s": in_doubt_at, **accounting}


def servers_after(events, attempts=()):
    """(the server that took writes at the end, the one before it or None, the promoted replica's
    position when promoted or None): from the last promote_replica fault the run injected; else,
    when a control plane promoted (keepalived's notify_down), from the server that acknowledged
    the writer's last write, as the writer saw it."""
    promoted = [e for e in events if e.get("source") == "harness" and e["event"] == "fault"
                and e["name"] == PromoteReplica.name]
    databases = SERVICE_SERVERS["mysql"]
    if promoted:
        target = promoted[-1]["params"]["target"]
        old = next((server for server in databases if server != target), None)
        return target, old, (promoted[-1].get("seen") or {}).get("position_at_promotion")
    acknowledged_by = [a.get("server") for a in attempts if a["outcome"] == "ack" and a.get("server") in databases]
    if acknowledged_by and acknowledged_by[-1] != databases[0]:
        return acknowledged_by[-1], databases[0], None
    return databases[0], None, None
