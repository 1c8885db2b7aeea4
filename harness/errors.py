"""Errors any part of the harness may raise about the lab, without knowing how it runs."""


class LabError(RuntimeError):
    """Something the lab could not do; the message says what, for the user."""


class DiskFull(LabError):
    """The disk a run writes its results to is full: the run ends, on the space it kept for that."""


class InvalidInput(ValueError):
    """What the user gave (a knob, a scenario, a file) cannot be used; nothing was started. The
    command line exits 2 on it, and 3 on a LabError."""
