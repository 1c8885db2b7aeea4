"""What a run asks of a place to run (places.py): its lab's shape and where its files go, one typed
record every place's lab_of_shape() takes (a Compose lab on this host or in a guest, pods on a
cluster), instead of a dozen keyword arguments handed down."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..topology import DEFAULT_CELL_NAMESPACES, DEFAULT_DATAPATH
from .base import ClientCell

DEFAULT_PROJECT = "blackhole-lab"


@dataclasses.dataclass(frozen=True)
class LabRequest:
    project: str = DEFAULT_PROJECT
    cells: tuple[ClientCell, ...] = ()          # a client namespace each
    datapath: str = DEFAULT_DATAPATH
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)   # compose.yaml's variables it sets
    workdir: Path | None = None                 # where its Compose files go (None: .lab/<project>)
    servers: tuple[str, ...] | None = None      # the servers started (None: all of them)
    net_admin: frozenset[str] = frozenset()     # services besides the director that get CAP_NET_ADMIN
    cell_namespaces: str = DEFAULT_CELL_NAMESPACES   # 'container' (one per cell) or 'netns' (one for all)
    services: tuple[Mapping[str, Any], ...] = ()     # Compose services a control plane adds ({service: definition})
    database: Any = None                        # the engine the database servers run (None: the default)

    def __post_init__(self) -> None:
        for name in ("cells", "services"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "net_admin", frozenset(self.net_admin))
        object.__setattr__(self, "env", dict(self.env))
        if self.servers is not None:
            object.__setattr__(self, "servers", tuple(self.servers))
