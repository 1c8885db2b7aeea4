"""Errors any part of the harness may raise about the lab, without knowing how it runs."""


class LabError(RuntimeError):
    """Something the lab could not do; the message says what, for the user."""


class DiskFull(LabError):
    """The disk a run writes its results to is full: the run ends, on the space it kept for that."""
