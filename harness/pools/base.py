"""What the lab asks of a connection pool (one file per pool beside this one, each a member of
POOLS in harness/pools/__init__.py): the protocols it speaks, its settings, the command that runs
it beside a cell's client, what it makes of a fault's effect on the flows, and its log read back
as the connections it closed."""
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from ..measure.effects import Effect
from ..setting import Setting
from .pooled_cell import PooledCell, PooledScenario


@dataclasses.dataclass(frozen=True)
class Closing:
    """A connection the pool closed, in its log's words."""
    t: float                  # its log's clock
    side: str                 # "server" (the pool's leg to the database) or "client"
    peer: str                 # whom the connection was with, as the log names it
    reason: str


class ConnectionPool(Protocol):
    @property
    def name(self) -> str:
        """What a cell says (`pool: NAME`), and the key of its settings (`NAME: {...}`)."""

    @property
    def protocols(self) -> tuple[str, ...]:
        """The wire protocols it speaks ("postgres", "mysql"): a cell on another engine is refused."""

    @property
    def version_command(self) -> tuple[str, ...]:
        """What env.json records of it, run in the cell's container."""

    @property
    def settings(self) -> Mapping[str, Setting]:
        """Its own settings, each read like every other setting of the lab."""

    def port(self, scenario: PooledScenario, cell: PooledCell) -> int:
        """Where the cell's client connects to it, on loopback in the cell's namespace."""

    def command(self, scenario: PooledScenario, cell: PooledCell, vip: str, database_port: int,
                netns: str | None = None) -> list[str]:
        """The command that runs it in the foreground, its log on stdout, in the cell's namespace."""

    def process_pattern(self, cell: PooledCell) -> str:
        """What `pkill -f` matches to stop the cell's pool."""

    def effect_on(self, effect: Effect, cell: PooledCell) -> Effect:
        """What the cell's client sees of the fault's effect on the pool's server leg."""

    def closings(self, log: str) -> Sequence[Closing]:
        """Every connection its log says it closed, in order."""

    def version(self, log: str) -> str | None:
        """Its name and version as its log says them at its start, or None."""


def first_after(found: Iterable[Closing], side: str, t: float) -> Closing | None:
    return next((c for c in found if c.side == side and c.t >= t), None)
