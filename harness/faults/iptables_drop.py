"""A partition: every packet between two nodes dropped, both ways, until healed.

Rules go in both nodes' namespaces (input, output and forward hooks), so a director
stops forwarding to or from the other node too.
"""
from typing import Any

from ..measure.effects import PARTITION, Effect, Landing
from .base import Fault, Setting, delete_tables, nft_table_script

TABLE = "blackhole_fault_drop"


class IptablesDrop(Fault):
    name = "iptables_drop"
    params = {"a": Setting("node", help="one side"), "b": Setting("node", help="the other side")}

    @classmethod
    def problem(cls, params: dict[str, Any]) -> str | None:
        return f"a and b are both {params['a']}: a partition needs two sides" if params["a"] == params["b"] else None

    def acts_inside(self) -> set[str]:
        return {self.p["a"], self.p["b"]}

    def effect(self) -> Effect:
        return Effect(PARTITION)

    def inject(self) -> Landing | None:
        a, b = self.p["a"], self.p["b"]
        self.lab.exec_each([(node, ["nft", "-f", "-"], self._cut_from(peer)) for node, peer in ((a, b), (b, a))])
        return None                  # the step's own start and duration bracket it

    def _cut_from(self, peer: str) -> str:
        addresses = ", ".join(self.lab.addresses(peer))
        rules = [f"ip daddr {{ {addresses} }} drop", f"ip saddr {{ {addresses} }} drop"]
        return nft_table_script(TABLE, {hook: rules for hook in ("input", "output", "forward")})

    def recover(self) -> None:
        delete_tables(self.lab, (self.p["a"], self.p["b"]), TABLE)
