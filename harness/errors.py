"""Errors any part of the harness may raise about the lab, without knowing how it runs."""


class LabError(RuntimeError):
    """Something the lab could not do; the message says what, for the user."""
