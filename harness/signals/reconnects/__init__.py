"""Where each reconnect went, under a control plane the clients connect to by name (control: dns):
each connect a cell's client made from the fault on, the address its lookup gave, how long it took
and how it ended, read from the client's own log; and what each address was (the name's old and new
answer, from the step that moved it)."""
from ...control.abilities import ConnectsByName
from ..base import CellRecord, RunContext, Signal
from . import section
from .attempts import attempts
from .record import ReconnectsCell, ReconnectsRun

MOVES = "dns_move"            # the step that re-points the name (harness/faults/dns_move.py)
SILENCES = "host_silent"      # a step after which a connect to the server's address goes unanswered


class Reconnects(Signal):
    name = "reconnects"
    section = section

    def summarize_cell(self, record: CellRecord) -> ReconnectsCell:
        c = record.context
        if c.fault is None or not isinstance(c.control, ConnectsByName):
            return {}
        tries = [a for a in attempts(record.probe_text) if a.started_t + a.took_s >= c.first_fault["started_t"]]
        return {"reconnects": [{"at_s": round(a.started_t - c.t_fault, 3), "address": a.address,
                                "took_s": round(a.took_s, 3), "error": a.error} for a in tries]}

    def summarize_run(self, context: RunContext) -> ReconnectsRun | None:
        if context.fault is None or not isinstance(context.control, ConnectsByName):
            return None
        addresses: dict[str, str] = {}
        silent: set[str] = set()
        for event in context.events:
            if event.get("event") != "fault" or event.get("source") != "harness":
                continue
            if event.get("name") == MOVES:
                seen = event["seen"]
                old = seen.get("old_server")      # runs before 2026-12-05 did not record it
                addresses.setdefault(seen["old_address"], f"{old} (the old address)" if old else "the old address")
                addresses[seen["new_address"]] = f"{event['params']['to']} (the new address)"
            elif event.get("name") == SILENCES:
                silent.add(event["params"]["target"])
        return {"addresses": addresses, "silent": sorted(silent)}
