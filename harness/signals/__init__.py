"""Measured signals, one file each (docs/adding-a-signal.md): the loads a run starts for each and
pure functions from the run's files to its part of the summary (combined.py puts them together)."""
from .base import CellRecord, Load, LoadPlan, RunContext, Signal
from .combined import SIGNALS, planned_loads, summarize

__all__ = ["SIGNALS", "CellRecord", "Load", "LoadPlan", "RunContext", "Signal", "planned_loads", "summarize"]
