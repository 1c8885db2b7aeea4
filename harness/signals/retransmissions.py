"""The retransmission ladder: every client namespace's sockets towards the VIP sampled with
`ss -tino` (one sampler per client container), drawn in charts/retransmissions.png; the base RTO
it shows is what the kernel model's window is built from (base.CellRecord.base_rto_s)."""
from ..load import sampling, ss_sampler
from .base import Load, Signal


class Retransmissions(Signal):
    name = "retransmissions"

    def loads(self, plan):
        s, run, loads = plan.scenario, plan.run, []
        samplers, vips = {}, {}         # container service -> [(namespace, its netns)], [VIPs its cells use]
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
