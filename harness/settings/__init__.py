"""The settings layer at the edge: every knob (registry.py), what its text may be (kinds.py,
targets.py, drivers.py), and the check make runs before any goal (edge.py). Standard library
only, so it runs before the lab's virtualenv exists."""
from .edge import Settings, check
from .kinds import SettingsError
from .registry import KNOBS

__all__ = ["KNOBS", "Settings", "SettingsError", "check"]
