"""The director-flows signal's part of summary.json: reconnects into a flow the director kept."""
from typing import TypedDict


class KeptFlowReconnect(TypedDict):
    namespace: str
    client: str
    backend: str
    flow_state: str
    first_resent_s: float
    last_seen_s: float
    got_through: bool


class DirectorFlowsRun(TypedDict):
    kept_flow_reconnects: list[KeptFlowReconnect]
