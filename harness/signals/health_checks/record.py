"""The health-check signal's part of summary.json: each director's checks by real server and
period, as the control plane reads them, and the share of SYNs a backend's limit dropped."""
from typing import NotRequired, TypedDict


class ServerChecks(TypedDict):
    failed_checks: int
    flaps: int
    virtual_servers_hit: int
    out_s: float                     # time out of rotation


class DirectorChecks(TypedDict):
    virtual_services: int
    delay_loop_s: float
    syns_per_check: int
    connect_timeout_s: float
    syn_retransmitted_at_s: list[float]
    tcp_syn_retries: int
    tcp_syn_linear_timeouts: int
    before: NotRequired[dict[str, ServerChecks]]
    during: NotRequired[dict[str, ServerChecks]]
    after: NotRequired[dict[str, ServerChecks]]


class LimitedBackend(TypedDict):
    rate_per_s: float
    syns_dropped: int
    syns_passed: int
    dropped_share: float | None


class HealthChecksRun(TypedDict):
    directors: dict[str, DirectorChecks]
    limited_backends: dict[str, LimitedBackend]
