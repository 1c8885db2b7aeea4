"""The director's own flow table (`ipvsadm -Lnc` or `conntrack -L`), sampled every two seconds
through the run: which backend each client flow pointed at, and when the table forgot it."""
from ..load import flow_sampler, sampling
from ..topology import DIRECTOR
from .base import Load, Signal


class DirectorFlows(Signal):
    name = "director_flows"

    def loads(self, plan):
        return [Load(DIRECTOR, plan.run.director_flow_samples(), tuple(flow_sampler.command(plan.duration_s, plan.datapath)),
                     flow_sampler.PROCESS, stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True)]
