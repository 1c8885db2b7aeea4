"""Reports: read only what a run wrote to disk (summary.json/md, charts, HTML pages)."""
from .render import render
from .tables import terminal_table

__all__ = ["render", "terminal_table"]
