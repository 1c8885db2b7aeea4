"""What a scenario's load section says of each load (load: {probe, sysbench, wrk, connect, writer}),
and what a load's command reads of the scenario and its cells (scenario/model.py gives those: the
load package is imported by the scenario's, so it names protocols of them, not its types)."""
import dataclasses
from typing import Any, Protocol


@dataclasses.dataclass(frozen=True)
class Probe:
    proto: str = "mysql"
    interval_ms: float = 100.0


@dataclasses.dataclass(frozen=True)
class Sysbench:
    threads: int = 1
    tables: int = 2
    table_size: int = 1000
    rate: int | None = None   # transactions per second for all its threads (--rate); 0: as fast as they go
    driver: str = "mysql"     # its --db-driver: the database engine's (harness/databases/)


@dataclasses.dataclass(frozen=True)
class Wrk:
    threads: int = 1
    connections: int = 4


@dataclasses.dataclass(frozen=True)
class ConnectProbe:
    """Connection-setup latency through the VIP (load.connect): connects per second, each given up
    after timeout_s."""
    rate_per_s: int = 100
    timeout_s: float = 5.0


@dataclasses.dataclass(frozen=True)
class Writer:
    """Sequence-numbered inserts through the VIP (load.writer), each write tried up to `attempts`
    times until acknowledged; after the run both servers are read back (data accounting)."""
    rate_per_s: float = 4.0
    attempts: int = 2
    read_timeout_s: float = 0.0      # the writer's own wait for an answer (0: none, the kernel decides)
    by_default: bool = False         # the scenario did not ask for it (load.writer: off leaves it out)
    proto: str = "mysql"             # what it speaks: the database engine's wire protocol


class LoadedScenario(Protocol):
    @property
    def probe_protocol(self) -> str: ...

    @property
    def probe(self) -> Probe: ...

    @property
    def sysbench(self) -> Sysbench | None: ...


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

