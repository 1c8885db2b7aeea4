"""Data accounting (load.writer): sequence-numbered writes through the VIP, each acknowledged,
failed or in doubt as the writer saw it, beside what the database servers hold after the run:
acknowledged writes the new primary lacks (lost), writes in doubt that committed, duplicates
left by retries, and the replica's position when it was promoted."""
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...faults.promote_replica import PromoteReplica
from ...measure.run_files import RunFiles
from ...measure.run_record import Event
from ...topology import PROTOCOL_PORTS, SERVICE_SERVERS
from ..base import Load, LoadPlan, ReadBackLab, RunContext, Signal, first_cell_load
from ..scenario_view import SignalScenario
from . import ledger, read_back, section, writer
from .record import DataRun


class DataAccounting(Signal):
    name = "data"
    files = {"writes": "load/writer.jsonl", "ledger": "db/{server}-ledger.tsv",
             "semi_sync": "db/{server}-semi-sync.tsv"}
    section = section
    chart = "write-outcomes.png"

    read_back_limit_s = read_back.LEDGER_READ_LIMIT_S

    def loads(self, plan: LoadPlan) -> list[Load]:
        s = plan.scenario
        return [first_cell_load(plan, s.writer, self.file(plan.run, "writes"), writer, PROTOCOL_PORTS["mysql"])] \
            if s.writer else []

    def reads_back(self, scenario: SignalScenario) -> str:
        return "the ledger on each database server" if scenario.writer else ""

    def read_back(self, lab: ReadBackLab, run: RunFiles, scenario: SignalScenario) -> None:
        servers = [s for s in lab.services() if s in SERVICE_SERVERS["mysql"]]
        read_back.read_ledgers(lab, run, servers, lambda server: self.file(run, "ledger", server=server),
                               lambda server: self.file(run, "semi_sync", server=server))

    def summarize_run(self, context: RunContext) -> DataRun | None:
        s = context.scenario
        if not s.writer:
            return None
        run = context.run
        attempts, _ = ledger.parse_writes(run.read(self.file(run, "writes")))
        new, old, position = servers_after(context.events, attempts)
        held = {server: ledger.parse_ledger(run.read(self.file(run, "ledger", server=server))) if self.file(run, "ledger", server=server).exists() else None
                for server in (new, old) if server}
        accounting = ledger.account(attempts, held.get(new), held.get(old) if old else None)
        t_fault = getattr(context, "t_fault", None)
        in_doubt_at = [round(r["t0"] - t_fault, 3) for r in attempts
                       if r["outcome"] == "in_doubt" and t_fault is not None]
        first_primary = old or new
        semi_sync = ledger.parse_semi_sync(run.read(self.file(run, "semi_sync", server=first_primary)))
        seconds = ledger.per_second(attempts, accounting.get("lost_seqs", []), t_fault) if t_fault is not None else []
        observed_s = getattr(context, "observed_s", None)
        part: DataRun = {"per_second": seconds, "rate_per_s": s.writer.rate_per_s, "by_default": s.writer.by_default, "attempts_per_write": s.writer.attempts,
                "replication": s.replication.mode, "semi_sync_timeout_ms": s.replication.semi_sync_timeout_ms,
                "semi_sync_on_first_primary": semi_sync if s.replication.mode == "semi-sync" else None,
                "new_primary": new, "old_primary": old, "position_at_promotion": position,
                "unreadable": sorted(server for server, rows in held.items() if rows is None),
                "in_doubt_sent_at_s": in_doubt_at, **accounting}
        if not attempts:
            part["writer_log"] = "empty" if self.file(run, "writes").exists() else "missing"
        elif t_fault is not None and observed_s is not None:
            part["unwritten_s"], part["writes_resumed"], part["unwritten_from_s"] = ledger.unwritten_after(
                attempts, t_fault, t_fault + observed_s)
        if t_fault is not None and (refused := ledger.refused(attempts, t_fault)):
            part["refused"] = refused
        return part


def servers_after(events: Iterable[Event], attempts: Sequence[Mapping[str, Any]] = ()
               ) -> tuple[str, str | None, str | None]:
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
    acknowledged_by: list[str] = [a["server"] for a in attempts if a["outcome"] == "ack" and a.get("server") in databases]
    if acknowledged_by and acknowledged_by[-1] != databases[0]:
        return acknowledged_by[-1], databases[0], None
    return databases[0], None, None
