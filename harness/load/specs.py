"""What a load's command reads of a scenario and its cells (scenario/model.py gives each): the load
package is imported by the scenario's, so it names these, not the scenario's own types."""
from collections.abc import Sequence
from typing import Any, Protocol


class SysbenchSpec(Protocol):
    @property
    def threads(self) -> int: ...

    @property
    def tables(self) -> int: ...

    @property
    def table_size(self) -> int: ...

    @property
    def rate(self) -> int | None: ...

    @property
    def driver(self) -> str: ...


class WrkSpec(Protocol):
    @property
    def threads(self) -> int: ...

    @property
    def connections(self) -> int: ...


class ProbeSpec(Protocol):
    @property
    def interval_ms(self) -> float: ...


class LoadedScenario(Protocol):
    @property
    def probe_protocol(self) -> str: ...

    @property
    def probe(self) -> ProbeSpec: ...

    @property
    def sysbench(self) -> SysbenchSpec | None: ...


class LoadedCell(Protocol):
    """A cell, as its probe or zoo program is started."""
    @property
    def name(self) -> str: ...

    @property
    def client(self) -> str: ...

    @property
    def client_settings(self) -> tuple[tuple[str, Any], ...]: ...

    @property
    def idle_s(self) -> float: ...

    @property
    def read_timeout_s(self) -> float: ...

    @property
    def connect_timeout_s(self) -> float | None: ...

    @property
    def target_session_attrs(self) -> str | None: ...

    @property
    def account(self) -> str: ...

    @property
    def database_user(self) -> str: ...

    def socket_env(self) -> dict[str, str]: ...


class NamedCells(Protocol):
    @property
    def cells(self) -> Sequence[LoadedCell]: ...
