"""The director's own flow table (`ipvsadm -Lnc` or `conntrack -L`), sampled every two seconds
through the run: which backend each client flow pointed at, and when the table forgot it. Its
part of the run's summary: the reconnects a flow it kept blackholed (measure/kept_flows.py)."""
from ..load import flow_sampler, sampling
from ..measure import director_flows, kept_flows, ss_log
from ..topology import DIRECTOR
from .base import Load, Signal


class DirectorFlows(Signal):
    name = "director_flows"

    def loads(self, plan):
        return [Load(DIRECTOR, plan.run.director_flow_samples(), tuple(flow_sampler.command(plan.duration_s, plan.datapath)),
                     flow_sampler.PROCESS, stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True)]

    def summarize_run(self, context):
        run = context.run
        table = run.director_flows("after-steps")
        if not table.exists():
            return {}
        flows = director_flows.parse_table(run.read(table))
        found = []
        for namespace in sorted({cell.namespace for cell in context.scenario.cells}):
            samples = run.ss_samples(namespace)
            if samples.exists():
                found += [{"namespace": namespace, **hit.as_record()} for hit in
                          kept_flows.reconnects_into_kept_flows(ss_log.parse(run.read(samples)), flows, context.t_fault)]
        return {"kept_flow_reconnects": found} if found else {}
