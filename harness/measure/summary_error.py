"""The error a reader of summary.json raises (summary_record.py, verdict.py)."""
from collections.abc import Mapping
from typing import Any


class SummaryError(ValueError):
    """A run's summary.json lacks what every run of its kind writes."""


def required(part: Mapping[str, Any], key: str, where: str) -> Any:
    """part[key], or a SummaryError naming what lacks it ('cell 'r5''s probe has no 'detect_s'')."""
    if key not in part:
        raise SummaryError(f"summary.json: {where} has no {key!r}")
    return part[key]
