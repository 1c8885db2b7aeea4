"""Every measured signal, one line each (a folder of harness/signals/ holds each one): the order
here is the order the run starts their loads, a cell's entry holds their parts, and the page and
summary.md show their sections and charts."""
from ..registered import Registry
from .after_idle import AfterIdle
from .connect import ConnectLatency
from .data import DataAccounting
from .director_flows import DirectorFlows
from .director_table import DirectorTable
from .health_checks import HealthChecks
from .lb import LbNoticed
from .machine import MachineCpu
from .pool import Pool
from .probe import Probe
from .proxy import ProxySessions
from .reconnects import Reconnects
from .retransmissions import Retransmissions
from .sysbench import Sysbench
from .vip import VipNeighbour
from .wrk import Wrk

SIGNALS = Registry("signal", (
    Pool(),             # started before the clients it serves
    Probe(),
    LbNoticed(),
    ProxySessions(),
    VipNeighbour(),
    Reconnects(),
    Sysbench(),
    AfterIdle(),
    Retransmissions(),
    Wrk(),
    DirectorTable(),
    ConnectLatency(),
    HealthChecks(),
    DataAccounting(),
    DirectorFlows(),
    MachineCpu(),
))
