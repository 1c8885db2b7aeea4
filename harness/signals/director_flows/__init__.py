"""The director's own flow table (`ipvsadm -Lnc` or `conntrack -L`), sampled every two seconds
through the run: which backend each client flow pointed at, and when the table forgot it. Its
part of the run's summary: the reconnects a flow it kept blackholed (signals/director_flows/kept_flows.py)."""
from ...load import sampling
from ...measure import director_flows, ss_log
from ...topology import DIRECTOR
from ..base import Load, LoadPlan, RunContext, Signal
from . import flow_sampler, kept_flows, section
from .record import DirectorFlowsRun, KeptFlowReconnect


class DirectorFlows(Signal):
    name = "director_flows"
    files = {"samples": "director/flows.txt"}
    section = section

    def loads(self, plan: LoadPlan) -> list[Load]:
        return [Load(DIRECTOR, self.file(plan.run, "samples"), tuple(flow_sampler.command(plan.duration_s, plan.datapath)),
                     flow_sampler.PROCESS, stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True)]

    def summarize_run(self, context: RunContext) -> DirectorFlowsRun | None:
        run = context.run
        table = run.director_flows("after-steps")
        if not table.exists():
            return None
        flows = director_flows.parse_table(run.read(table))
        found: list[KeptFlowReconnect] = []
        for namespace in sorted({cell.namespace for cell in context.scenario.cells}):
            samples = run.ss_samples(namespace)
            if samples.exists():
                found += [{"namespace": namespace, "client": hit.client, "backend": hit.backend,
                           "flow_state": hit.flow_state, "first_resent_s": hit.first_resent_s,
                           "last_seen_s": hit.last_seen_s, "got_through": hit.got_through}
                          for hit in kept_flows.reconnects_into_kept_flows(ss_log.parse(run.read(samples)), flows,
                                                                           context.t_fault)]
        return {"kept_flow_reconnects": found} if found else None
