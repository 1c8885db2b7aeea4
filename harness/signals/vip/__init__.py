"""Which director holds the VIP, as each client namespace sees it: its neighbour entry for the
VIP (`ip neigh`), sampled four times a second where two directors share the VIP with VRRP. The
backup's gratuitous ARP moves it: when the clients saw the takeover, and the failback."""
from collections.abc import Sequence

from ...load import sampling
from ...measure.probe_log import Record
from ..base import CellRecord, Load, LoadPlan, Signal
from . import neighbours
from .record import AfterMove, VipCell

PROCESS = "blackhole-neigh-sampler"
INTERVAL_S = 0.25


class VipNeighbour(Signal):
    name = "vip"
    files = {"samples": "namespaces/{namespace}/neigh.txt"}

    def loads(self, plan: LoadPlan) -> list[Load]:
        if not plan.watch_vip:
            return []
        groups: dict[str, list] = {}
        for namespace, service in sorted({(c.namespace, c.service) for c in plan.scenario.cells}):
            container, netns = plan.placement(service)
            groups.setdefault(container, []).append((namespace, netns))
        command = f"ip neigh show {plan.vip}"
        loads = []
        for container, namespaces in groups.items():
            if len(namespaces) == 1 and namespaces[0][1] is None:
                loads.append(Load(container, self.file(plan.run, "samples", namespace=namespaces[0][0]),
                                  tuple(sampling.every(INTERVAL_S, plan.duration_s, command, PROCESS)), PROCESS,
                                  stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True))
                continue
            loads.append(Load(container, None,
                              tuple(sampling.every_in_namespaces(INTERVAL_S, plan.duration_s, command, namespaces,
                                                                 PROCESS)), PROCESS,
                              stop_signal=sampling.STOP_SIGNAL, stops_on_eof=True,
                              cells=tuple((namespace, self.file(plan.run, "samples", namespace=namespace)) for namespace, _ in namespaces)))
        return loads

    def summarize_cell(self, record: CellRecord) -> VipCell:
        c = record.context
        path = self.file(c.run, "samples", namespace=record.cell.namespace)
        if not path.exists():
            return {}
        moves = neighbours.moves(neighbours.parse_samples(path.read_text()), after_t=c.first_fault["started_t"])
        return {"vip": {"moves_seen_s": [round(t - c.t_fault, 3) for _, t, _ in moves],
                        "moved_after_s": [round(since - c.t_fault, 3) for since, _, _ in moves],
                        "holders": [mac for _, _, mac in moves],
                        "after_moves": [_after(record.ops, since, c.t_fault) for since, _, _ in moves]}}


def _after(ops: Sequence[Record], t: float, t_fault: float) -> AfterMove:
    """What the cell's client met after the VIP moved (after t): its first failed operation (an
    error the move caused) and its first success after that, seconds after the fault."""
    failed = next((op for op in ops if op["t1"] >= t and not op["ok"]), None)
    back = next((op for op in ops if failed and op["t0"] >= failed["t1"] and op["ok"]), None)
    return {"error": None if failed is None else failed.get("error"),
            "error_s": None if failed is None else round(failed["t1"] - t_fault, 3),
            "back_s": None if back is None else round(back["t1"] - t_fault, 3)}
