"""Faults, one per file, each registering itself in FAULTS (base.py) by its name, the name
scenarios use (docs/adding-a-fault.md). Importing this package imports every one of them."""
from . import (app_hang, aws_deregister, backend_restart, director_kill, dns_move, end_connections,  # noqa: F401
               endpoint_not_ready, endpoint_removed, haproxy_server, host_silent, iptables_drop, ipvs_swap,
               lb_idle_timeout, node_lost, promote_replica, read_only, replication_cut, rx_stall, silent_kill,
               slow_link, syn_limit)
from .base import FAULTS, Fault, Setting

__all__ = ["FAULTS", "Fault", "Setting"]
