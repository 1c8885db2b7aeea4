"""The pool signal's part of a cell's entry in summary.json."""
from typing import NotRequired, TypedDict


class PoolPart(TypedDict):
    name: str                        # the pool (harness/pools/)
    version: str | None              # as its log says
    settings: dict[str, object]      # the cell's settings of it
    basis: str                       # the model's reason for the cell's window
    server_closed_s: NotRequired[float]    # its server leg closed, s after the fault (its log)
    server_reason: NotRequired[str]
    client_closed_s: NotRequired[float]    # then the client's connection
    client_reason: NotRequired[str]


class PoolCell(TypedDict, total=False):
    pool: PoolPart
