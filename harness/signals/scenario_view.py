"""What the signals read of a failover scenario and its cells (scenario/model.py's Scenario and Cell
give it). The signals' package may not import the scenario's: that would lengthen the chain of
imports between packages past what tests/unit/test_package_layers.py allows."""
from collections.abc import Sequence
from typing import Any, Protocol

from ..load.specs import ConnectProbe, LoadedCell, LoadedScenario, Writer, Wrk
from ..measure.effects import Effect
from ..pools.pooled_cell import PooledCell


class SignalCell(PooledCell, LoadedCell, Protocol):
    @property
    def service(self) -> str: ...

    @property
    def namespace(self) -> str: ...

    @property
    def director(self) -> str | None: ...

    @property
    def hosts(self) -> tuple[str, ...]: ...

    @property
    def sysctls(self) -> tuple[tuple[str, int], ...]: ...


class SignalStep(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def params(self) -> tuple[tuple[str, Any], ...]: ...

    @property
    def seconds(self) -> float: ...

    def effect(self) -> Effect: ...


class ReplicationView(Protocol):
    @property
    def mode(self) -> str: ...

    @property
    def semi_sync_timeout_ms(self) -> int: ...


class SignalScenario(LoadedScenario, Protocol):
    @property
    def id(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def cells(self) -> Sequence[SignalCell]: ...

    @property
    def steps(self) -> Sequence[SignalStep]: ...

    @property
    def warmup_s(self) -> float: ...

    @property
    def observe_s(self) -> float: ...

    @property
    def control(self) -> str: ...

    @property
    def control_settings(self) -> tuple[tuple[str, Any], ...]: ...

    @property
    def wrk(self) -> Wrk | None: ...

    @property
    def connect(self) -> ConnectProbe | None: ...

    @property
    def writer(self) -> Writer | None: ...

    @property
    def replication(self) -> ReplicationView: ...

    def runs_sysbench(self, cell: Any) -> bool: ...
