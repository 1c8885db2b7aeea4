"""Faults, one per file, and the registry scenarios name them by."""
from .app_hang import AppHang
from .base import Fault, Param
from .iptables_drop import IptablesDrop
from .ipvs_swap import IpvsSwap
from .lb_idle_timeout import LbIdleTimeout
from .promote_replica import PromoteReplica
from .silent_kill import SilentKill

FAULTS = {cls.name: cls for cls in (IpvsSwap, PromoteReplica, SilentKill, IptablesDrop, AppHang, LbIdleTimeout)}

__all__ = ["FAULTS", "Fault", "Param"]
