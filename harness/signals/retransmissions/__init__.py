"""The retransmission ladder: every client namespace's sockets towards the VIP sampled with
`ss -tino` (one sampler per client container), drawn in charts/retransmissions.png; the base RTO
it shows is what the kernel model's window is built from (base.CellRecord.base_rto_s)."""
from ...load import sampling
from ...measure import ss_log
from ..base import CellRecord, Load, LoadPlan, Signal
from . import kernel_gave_up, ladder, lateness, ss_sampler
from .record import RetransmissionsCell


class Retransmissions(Signal):
    name = "retransmissions"
    chart = "retransmissions.png"
    lateness = lateness

    def loads(self, plan: LoadPlan) -> list[Load]:
        s, run, loads = plan.scenario, plan.run, []
        samplers: dict[str, list] = {}              # container service -> [(namespace, its netns)]
        vips: dict[str, dict[str, bool]] = {}       # container service -> the VIPs its cells use
        for namespace, service in sorted({(c.namespace, c.service) for c in s.cells}):
            container, netns = plan.placement(service)
            samplers.setdefault(container, []).append((namespace, netns))
        for cell in s.cells:
            vips.setdefault(plan.placement(cell.service)[0], {})[plan.vip_for(cell)] = True
        for container, namespaces in samplers.items():
            vip = " or dst ".join(vips[container])
            [(first, first_netns), *others] = namespaces
            if not others and first_netns is None:          # the container is the namespace: straight to its file
                loads.append(Load(container, run.ss_samples(first), tuple(ss_sampler.command(vip, plan.duration_s)),
                                  ss_sampler.PROCESS, stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True))
                continue
            loads.append(Load(container, None, tuple(ss_sampler.group_command(vip, plan.duration_s, namespaces)),
                              ss_sampler.PROCESS, stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True,
                              cells=tuple((namespace, run.ss_samples(namespace)) for namespace, _ in namespaces)))
        return loads

    def summarize_cell(self, record: CellRecord) -> RetransmissionsCell:
        """The kernel's own end of the cell's blackholed connection (signals/retransmissions/kernel_gave_up.py);
        of a connection still waiting when the run ended, its retransmissions so far against the
        model's ladder (ladder.py)."""
        outcome, window, t_fault = record.outcome, record.window, record.context.t_fault
        if outcome.detect_s is None and window.expected_s is not None and record.caught_connection_samples:
            c = record.context
            rungs = ladder.part(record.caught_connection_samples, t_fault, c.interval_s + c.first_fault["uncertainty_s"],
                                record.base_rto_s, c.hz, record.cell.knob("tcp_rto_max_ms") / 1000)
            return {"ladder": rungs} if rungs else {}
        if outcome.detect_s is None or window.expected_s is None:
            return {}
        path = record.context.run.ss_samples(record.cell.namespace)
        times = [s.t for samples in ss_log.by_port(path).values() for s in samples] if path.exists() else []
        bracket = kernel_gave_up.ended_bracket(record.caught_connection_samples, times, record.context.hz,
                                               record.cell.knob("tcp_user_timeout_ms"))
        found = kernel_gave_up.part(bracket, t_fault, outcome.detect_s,
                                    lambda earliest, latest: window.meets(earliest, latest, outcome.sent_s))
        return {"kernel": found} if found else {}

