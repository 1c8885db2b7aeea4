"""What a layer that runs commands in the lab asks of it (harness/lab/base.py's Lab gives it): a
command in a node, and what it answered. Faults, control planes, the director and the database
engines each ask for this much, and for more only through a protocol of their own."""
from collections.abc import Sequence
from typing import Protocol


class Ran(Protocol):
    """A finished command (lab/base.py's ExecResult)."""

    @property
    def returncode(self) -> int: ...

    @property
    def stdout(self) -> str: ...

    @property
    def stderr(self) -> str: ...


class RunsCommands(Protocol):
    def exec(self, service: str, command: Sequence[str], check: bool = ..., timeout: float = ...,
             stdin: str | None = ...) -> Ran: ...
