"""The proxy signal's part of a cell's entry in summary.json: what ended its session through a
proxy director, by the proxy's log and by a capture on the wire."""
from typing import NotRequired, TypedDict


class LaterSession(TypedDict):
    server: str
    termination: str
    ended_by: str
    ended_s: float


class ProxyPart(TypedDict):
    director: str
    client_port: int
    ended_by: str
    termination: NotRequired[str]    # HAProxy's tcplog termination state
    ended_s: NotRequired[float]
    client_got: NotRequired[str]     # FIN, RST, FIN then RST (the capture)
    client_got_s: NotRequired[float]
    later: NotRequired[list[LaterSession]]


class ProxyCell(TypedDict, total=False):
    proxy: ProxyPart
