"""Faults, one per file, and the registry scenarios name them by (docs/adding-a-fault.md)."""
from .app_hang import AppHang
from .backend_restart import BackendRestart
from .base import Fault, Param
from .iptables_drop import IptablesDrop
from .ipvs_swap import IpvsSwap
from .lb_idle_timeout import LbIdleTimeout
from .promote_replica import PromoteReplica
from .silent_kill import SilentKill

FAULTS = {cls.name: cls for cls in (IpvsSwap, PromoteReplica, SilentKill, IptablesDrop, AppHang, LbIdleTimeout,
                                    BackendRestart)}


def effect_of(name, params):
    """The effect a fault with these params declares, without a lab: for runs recorded before
    faults wrote their effect into the event."""
    return FAULTS[name](None, **params).effect()


__all__ = ["FAULTS", "Fault", "Param", "effect_of"]
