"""The error a reader of summary.json raises (summary_record.py, verdict.py)."""


class SummaryError(ValueError):
    """A run's summary.json lacks what every run of its kind writes."""
