"""How long each cell's probe operations took before, during and after the fault (p50 / p99 /
p99.9 / max with their counts), in runs that measure latency (load.connect): a stall on the
receive path shows in the tail of the queries as in the tail of connection setup."""
from ..measure import connect_log
from .base import Signal
from .connect_latency import warm_up_t


class QueryLatency(Signal):
    name = "query_latency"

    def summarize_cell(self, record):
        c = record.context
        if not c.scenario.connect:
            return {}
        heal_t = c.t_fault + c.healed_after if c.healed_after is not None else None
        operations = [connect_log.Connect(op["t0"], op["t1"] - op["t0"] if op.get("ok") else None, op.get("error"))
                      for op in record.ops]
        return {"query_latency": connect_log.phases(operations, c.t_fault, heal_t, warm_up_t(c.events))}
