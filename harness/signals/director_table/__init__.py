"""The director's own table of virtual and real servers (/proc/net/ip_vs, read by bash itself:
no process per sample, which in a TCG guest costs more than the interval), sampled twice a second
on every director a control plane that acts by itself runs: when a real server left it, or went
to weight 0, as the kernel showed it, beside what the control plane's log says it did. A control
plane that programs nftables instead says how its table is sampled (LoadPlan.table_sample)."""
from ...load import sampling
from ..base import Load, LoadPlan, Signal

PROCESS = "blackhole-table-sampler"
INTERVAL_S = 0.5
SAMPLE = "read -r -d '' table < /proc/net/ip_vs; printf '%s\\n' \"$table\""


class DirectorTable(Signal):
    name = "director_table"

    def loads(self, plan: LoadPlan) -> list[Load]:
        return [Load(service, plan.run.director_table(service),
                     tuple(sampling.every(INTERVAL_S, plan.duration_s, plan.table_sample or SAMPLE, PROCESS)), PROCESS,
                     stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True)
                for service in plan.sampled_directors]
