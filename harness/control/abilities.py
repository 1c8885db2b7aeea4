"""What only some control planes can say, each an ability a caller asks for with isinstance (never a
member every plane has that returns None elsewhere)."""
from typing import Protocol, runtime_checkable

from .base import NoticeWindow


@runtime_checkable
class ChangesByItsModel(Protocol):
    """The plane changes the director after a silent death by a model of its own timers (its
    checks, a grace period, an operator's command at the death), so an answer before any run can
    say when new connections stop meeting the dead server. node_grace_s: how long the cluster takes
    to call a node lost, where the plane learns a death that way (kube-proxy)."""

    def change_by_model(self, director: str | None = None, node_grace_s: float | None = None) -> NoticeWindow:
        ...


def change_by_model(plane: object, director: str | None = None, node_grace_s: float | None = None) -> NoticeWindow | None:
    """The plane's NoticeWindow from a silent death to its change of `director`, or None where its
    model has none."""
    if isinstance(plane, ChangesByItsModel):
        return plane.change_by_model(director, node_grace_s)
    return None


@runtime_checkable
class ConnectsByName(Protocol):
    """The clients connect to a name the plane answers (a DNS failover), not to the director's VIP."""

    def client_address(self, vip: str) -> str:
        ...


def client_address(plane: object, vip: str) -> str:
    """What the clients connect to: the plane's name where it has one, else the VIP."""
    return plane.client_address(vip) if isinstance(plane, ConnectsByName) else vip
