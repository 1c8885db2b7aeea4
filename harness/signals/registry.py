"""The signals a run measures, in the order it starts their loads and a cell's summary holds their parts."""
from .director_flows import DirectorFlows
from .idle import AfterIdle
from .probe import Probe
from .retransmissions import Retransmissions
from .sysbench import Sysbench
from .wrk import Wrk

SIGNALS = (Probe(), Sysbench(), AfterIdle(), Retransmissions(), Wrk(), DirectorFlows())


def planned_loads(plan):
    """Every load the signals need for a run (plan: base.LoadPlan)."""
    return [load for signal in SIGNALS for load in signal.loads(plan)]
