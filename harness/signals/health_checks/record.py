"""The health-check signal's part of summary.json: each director's checks by real server and
period, as the control plane reads them, and the share of SYNs a backend's limit dropped."""
from typing import TypedDict

from ...measure.health_checks import DirectorChecks, ServerChecks

__all__ = ["DirectorChecks", "ServerChecks", "LimitedBackend", "HealthChecksRun"]


class LimitedBackend(TypedDict):
    rate_per_s: float
    syns_dropped: int
    syns_passed: int
    dropped_share: float | None


class HealthChecksRun(TypedDict):
    directors: dict[str, DirectorChecks]
    limited_backends: dict[str, LimitedBackend]
