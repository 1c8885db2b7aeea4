"""Control planes, one file each, each registering itself in CONTROL_PLANES (base.py) by the
name a scenario's `control:` uses (docs/adding-a-control-plane.md). Importing this package
imports every one of them."""
from . import (  # noqa: F401
               aws_nlb,
               azure_standard,
               dns,
               gcp_passthrough,
               haproxy,
               keepalived,
               kube_proxy,
               manual,
               patroni,
               patroni_dns,
)
from .base import CONTROL_PLANES, DEFAULT_CONTROL_PLANE, ControlPlane, DirectorChange, NoticeWindow, control_plane

__all__ = ["CONTROL_PLANES", "DEFAULT_CONTROL_PLANE", "ControlPlane", "DirectorChange", "NoticeWindow",
           "control_plane"]
