"""Control planes, one file each, and the registry a scenario's `control:` names them by
(docs/adding-a-control-plane.md)."""
from .base import ControlPlane, DirectorChange, NoticeWindow
from .manual import Manual

CONTROL_PLANES = {plane.name: plane for plane in (Manual,)}
DEFAULT_CONTROL_PLANE = "manual"


def control_plane(name=None):
    """The control plane named `name` (None: the default)."""
    return CONTROL_PLANES[name or DEFAULT_CONTROL_PLANE]()


__all__ = ["CONTROL_PLANES", "DEFAULT_CONTROL_PLANE", "ControlPlane", "DirectorChange", "NoticeWindow",
           "control_plane"]
