"""What the model (predict.py) reads of a cell: scenario/model.py's Cell gives it, and the model,
which scenario imports, names only this."""
from typing import Any, ClassVar, Protocol

from .host_monitor import HostMonitor


class ModelledCell(Protocol):
    # a dataclass: the model asks for the same cell with other socket options (dataclasses.replace)
    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def name(self) -> str: ...

    @property
    def tcp_user_timeout_ms(self) -> int: ...

    @property
    def keepalive(self) -> tuple[int, ...]: ...

    @property
    def read_timeout_s(self) -> float: ...

    @property
    def client_settings(self) -> tuple[tuple[str, Any], ...]: ...

    @property
    def socket_options_reach_kernel(self) -> bool: ...

    @property
    def host_monitor(self) -> HostMonitor | None: ...

    def knob(self, key: str) -> Any: ...

