"""What a pool reads of a cell and its scenario (scenario/model.py gives each): the scenario's package
imports the pools, so they name these, not its types."""
from collections.abc import Sequence
from typing import Any, Protocol

from ..measure.modelled_cell import ModelledCell


class PooledCell(ModelledCell, Protocol):
    @property
    def pool(self) -> str | None: ...

    @property
    def pool_settings(self) -> tuple[tuple[str, Any], ...]: ...


class Named(Protocol):
    @property
    def name(self) -> str: ...


class PooledScenario(Protocol):
    @property
    def cells(self) -> Sequence[Named]: ...
