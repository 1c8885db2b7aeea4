"""Connection-setup latency through the VIP (load.connect; seed 002's SYN→SYN-ACK tail, seed
003's throttled SYNs): connects per second from the first cell's namespace, per second and per
phase of the run (p50/p99/p99.9/max with their counts), and the SYNs each slow or failed connect
needed, beside that namespace's SYN schedule; and how long each cell's probe operations took
before, during and after the fault (p50 / p99 / p99.9 / max with their counts): a stall on the
receive path shows in the tail of the queries as in the tail of connection setup."""
from collections.abc import Iterable, Sequence

from ...faults.rx_stall import RxStall
from ...measure.run_record import Event
from ...measure.syn_model import syn_retransmissions, syn_retransmit_times
from ...measure.sysctl_knobs import KERNEL_DEFAULTS
from ...topology import PROTOCOL_PORTS
from ..base import CellRecord, Load, LoadPlan, RunContext, Signal, first_cell_load
from ..scenario_view import SignalScenario
from . import connect_log, connect_probe, section, stall_log
from .record import ConnectCell, ConnectRun, StallsPart


class ConnectLatency(Signal):
    name = "connect"
    files = {"log": "load/connect.jsonl"}
    section = section
    chart = "connect-latency.png"

    def loads(self, plan: LoadPlan) -> list[Load]:
        s = plan.scenario
        return [first_cell_load(plan, s.connect, self.file(plan.run, "log"), connect_probe, PROTOCOL_PORTS[s.probe.proto])] \
            if s.connect else []

    def summarize_run(self, context: RunContext) -> ConnectRun | None:
        s = context.scenario
        if not s.connect:
            return None
        connects, totals = connect_log.parse(context.run.read(self.file(context.run, "log")))
        heal_t = context.t_fault + context.healed_after if context.healed_after is not None else None
        sysctls = context.env.get("namespaces", {}).get(s.cells[0].namespace, {})
        syn_retries = sysctls.get("tcp_syn_retries", KERNEL_DEFAULTS["tcp_syn_retries"])
        linear = sysctls.get("tcp_syn_linear_timeouts", 0)      # absent before 6.5
        return {"port": PROTOCOL_PORTS[s.probe.proto], "rate_per_s": s.connect.rate_per_s,
                "timeout_s": s.connect.timeout_s, "from": s.cells[0].namespace,
                "sent": totals["sent"] if totals else len(connects), "skipped": totals["skipped"] if totals else None,
                "healed_after_s": None if context.healed_after is None else round(context.healed_after, 3),
                "phases": connect_log.phases(connects, context.t_fault, heal_t, warm_up_t(context.events)),
                "by_syn_retransmissions": connect_log.by_syn_retransmissions(connects),
                "syn_schedule": {"tcp_syn_retries": syn_retries, "tcp_syn_linear_timeouts": linear,
                                 "retransmitted_at_s": syn_retransmit_times(linear, syn_retransmissions(syn_retries, linear))},
                "per_second": connect_log.per_second(connects, context.t_fault),
                **stalls_part(context, connects)}

    def summarize_cell(self, record: CellRecord) -> ConnectCell:
        c = record.context
        if not c.scenario.connect:
            return {}
        heal_t = c.t_fault + c.healed_after if c.healed_after is not None else None
        operations = [connect_log.Connect(op["t0"], op["t1"] - op["t0"] if op.get("ok") else None, op.get("error"))
                      for op in record.ops]
        return {"query_latency": connect_log.phases(operations, c.t_fault, heal_t, warm_up_t(c.events))}


def warm_up_t(events: Iterable[Event]) -> float | None:
    """When the warm-up began (every client answered), or None."""
    return next((e["t"] for e in events if e.get("source") == "harness" and e["event"] == "loads_ready"), None)


def stalled_targets(scenario: SignalScenario) -> list[str]:
    """The servers a fault of the scenario stalls (faults/rx_stall.py)."""
    return sorted({dict(step.params)["target"] for step in scenario.steps
                   if step.kind == "fault" and step.name == RxStall.name})


def stalls_part(context: RunContext, connects: Sequence[connect_log.Connect]) -> StallsPart:
    """The stalls the targets' logs show, and the connects split by whether they met one."""
    periods = [period for target in stalled_targets(context.scenario)
               for period in stall_log.stalls(context.run.read(context.run.service_log(target)))]
    if not periods:
        return {}
    held = [round(end - start, 3) for start, end in periods]
    meets = [stall_log.overlaps(c.t0, c.t0 + (c.seconds or 0), periods) for c in connects]
    met = [c for c, meeting in zip(connects, meets) if meeting]
    missed = [c for c, meeting in zip(connects, meets) if not meeting]
    return {"stalls": {"count": len(periods), "min_s": min(held), "max_s": max(held)},
            "met_a_stall": connect_log.stats(met), "met_no_stall": connect_log.stats(missed)}
