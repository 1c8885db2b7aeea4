"""The VIP-neighbour signal's part of a cell's entry in summary.json: when its namespace saw
the VIP move to another director's MAC, and what its client met after each move."""
from typing import TypedDict


class AfterMove(TypedDict):
    error: str | None
    error_s: float | None
    back_s: float | None


class VipPart(TypedDict):
    moves_seen_s: list[float]
    moved_after_s: list[float]
    holders: list[str]
    after_moves: list[AfterMove]


class VipCell(TypedDict, total=False):
    vip: VipPart
