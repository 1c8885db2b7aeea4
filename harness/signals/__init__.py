"""Measured signals, one folder each (docs/adding-a-signal.md): the loads a run starts for each,
pure functions from the run's files to its part of the summary, and its section and chart on the
page; registry.py lists them, combined.py puts them together."""
from .base import CellRecord, Load, LoadPlan, RunContext, Signal
from .combined import planned_loads, summarize_failover
from .registry import SIGNALS

__all__ = ["SIGNALS", "CellRecord", "Load", "LoadPlan", "RunContext", "Signal", "planned_loads", "summarize_failover"]
