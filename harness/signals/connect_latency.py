"""Connection-setup latency through the VIP (load.connect; seed 002's SYN→SYN-ACK tail, seed
003's throttled SYNs): connects per second from the first cell's namespace, per second and per
phase of the run (p50/p99/p99.9/max with their counts), and the SYNs each slow or failed connect
needed, beside that namespace's SYN schedule."""
from ..faults.rx_stall import RxStall
from ..load import connect_probe
from ..measure import connect_log, stall_log
from ..measure.kernel_model import syn_retransmit_times
from ..measure.sysctl_knobs import KERNEL_DEFAULTS
from ..topology import PROTOCOL_PORTS
from .base import Signal, first_cell_load


class ConnectLatency(Signal):
    name = "connect"

    def loads(self, plan):
        s = plan.scenario
        return [first_cell_load(plan, s.connect, plan.run.connect_log(), connect_probe, PROTOCOL_PORTS[s.probe.proto])] \
            if s.connect else []

    def summarize_run(self, context):
        s = context.scenario
        if not s.connect:
            return {}
        connects, totals = connect_log.parse(context.run.read(context.run.connect_log()))
        heal_t = context.t_fault + context.healed_after if context.healed_after is not None else None
        sysctls = context.env.get("namespaces", {}).get(s.cells[0].namespace, {})
        syn_retries = sysctls.get("tcp_syn_retries", KERNEL_DEFAULTS["tcp_syn_retries"])
        linear = sysctls.get("tcp_syn_linear_timeouts", 0)      # absent before 6.5
        return {"port": PROTOCOL_PORTS[s.probe.proto], "rate_per_s": s.connect.rate_per_s,
                "timeout_s": s.connect.timeout_s, "from": s.cells[0].namespace,
                "sent": totals["sent"] if totals else len(connects), "skipped": totals["skipped"] if totals else None,
                "healed_after_s": None if heal_t is None else round(context.healed_after, 3),
                "phases": connect_log.phases(connects, context.t_fault, heal_t, warm_up_t(context.events)),
                "by_syn_retransmissions": connect_log.by_syn_retransmissions(connects),
                "syn_schedule": {"tcp_syn_retries": syn_retries, "tcp_syn_linear_timeouts": linear,
                                 "retransmitted_at_s": syn_retransmit_times(linear, syn_retries + linear)},
                "per_second": connect_log.per_second(connects, context.t_fault),
                **stalls_part(context, connects)}


def warm_up_t(events):
    """When the warm-up began (every client answered), or None."""
    return next((e["t"] for e in events if e.get("source") == "harness" and e["event"] == "loads_ready"), None)


def stalled_targets(scenario):
    """The servers a fault of the scenario stalls (faults/rx_stall.py)."""
    return sorted({dict(step.params)["target"] for step in scenario.steps
                   if step.kind == "fault" and step.name == RxStall.name})


def stalls_part(context, connects):
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
