"""Measured signals, one file each (docs/adding-a-signal.md): the loads a run starts for each and
pure functions from the run's files to its part of the summary (summary.py puts them together)."""
from .base import CellRecord, Load, LoadPlan, RunContext, Signal
from .registry import SIGNALS, planned_loads
from .summary import summarize

__all__ = ["SIGNALS", "CellRecord", "Load", "LoadPlan", "RunContext", "Signal", "planned_loads", "summarize"]
