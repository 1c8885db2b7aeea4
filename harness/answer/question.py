"""What an operator asks the model: one client, written as a scenario's cell is (its host's sysctls,
its socket options, its driver and the driver's settings: `{"tcp_retries2": 15, "client": "jdbc",
"jdbc": {"socketTimeout": 3000}}`), behind one control plane with its settings, on a path of some
round-trip time and a kernel of some HZ, when the database server behind the VIP dies without a
word. The same record whether it came from explain's knobs, an incident's folder or a scenario's
cell; a cure is a change of it (cures.py), and a replay runs the same cell definitions."""
import dataclasses
import functools
import json
from typing import Any, Self

from ..control import DEFAULT_CONTROL_PLANE
from ..databases import DEFAULT_DATABASE
from ..measure import kernel_model
from ..scenario.model import Cell
from ..scenario.parser import read_cell

RTT_S = 0.0005            # a veth path through the director


@dataclasses.dataclass(frozen=True)
class Question:
    definition: str                   # the cell as a scenario file writes it, as JSON
    plane: str = DEFAULT_CONTROL_PLANE
    plane_settings: tuple[tuple[str, Any], ...] = ()   # ((setting, value), ...) as a scenario's `control:` gives them
    engine: str = DEFAULT_DATABASE
    rtt_s: float = RTT_S
    hz: int = kernel_model.HZ
    node_grace_s: float | None = None     # kube-proxy: how long the cluster takes to call the node lost
    syn_linear_timeouts: int = 0      # the client kernel's net.ipv4.tcp_syn_linear_timeouts (6.5+: 4)
    name_moved_after_s: float | None = None   # dns: when the database's name was re-pointed, s after the death
    promoted_after_s: float | None = None     # a host list's (HOST_LIST=1): when the replica was promoted, s after it

    @classmethod
    def of(cls, cell: dict[str, Any], **rest: Any) -> Self:
        """cell: a scenario cell's mapping."""
        return cls(json.dumps(cell, sort_keys=True), **rest)

    @property
    def cell_definition(self) -> dict[str, Any]:
        return json.loads(self.definition)

    @functools.cached_property
    def cell(self) -> Cell:
        """The cell as a scenario reads it (scenario.parser.read_cell: its checks, its names)."""
        return read_cell(self.cell_definition, "the question")

    def with_cell(self, **changes: Any) -> Self:
        """The question with these keys of the cell definition replaced (a driver's settings merged)."""
        cell = self.cell_definition
        for key, value in changes.items():
            cell[key] = {**cell.get(key, {}), **value} if isinstance(value, dict) else value
        return dataclasses.replace(self, definition=json.dumps(cell, sort_keys=True))

    def with_plane_settings(self, **changes: Any) -> Self:
        return dataclasses.replace(self, plane_settings=tuple({**dict(self.plane_settings), **changes}.items()))

    @property
    def rto0_s(self) -> float | None:
        """The first RTO on the path; None on the lab's own (the model's default: nothing measured)."""
        return None if self.rtt_s == RTT_S else kernel_model.initial_rto_s(self.rtt_s, self.hz)
