"""A partition: every packet between two nodes dropped, both ways, until healed.

Rules go in both nodes' namespaces (input, output and forward hooks), so a director
stops forwarding to or from the other node too.
"""
from ..measure.effects import PARTITION, Effect
from .base import Fault, Param, delete_table, nft_table_script

TABLE = "blackhole_fault_drop"


class IptablesDrop(Fault):
    name = "iptables_drop"
    params = {"a": Param("node", help="one side"), "b": Param("node", help="the other side")}

    @classmethod
    def problem(cls, params):
        return f"a and b are both {params['a']}: a partition needs two sides" if params["a"] == params["b"] else None

    def acts_inside(self):
        return {self.p["a"], self.p["b"]}

    def effect(self):
        return Effect(PARTITION)

    def inject(self):
        a, b = self.p["a"], self.p["b"]
        for node, peer in ((a, b), (b, a)):
            addresses = ", ".join(self.lab.addresses(peer))
            rules = [f"ip daddr {{ {addresses} }} drop", f"ip saddr {{ {addresses} }} drop"]
            script = nft_table_script(TABLE, {hook: rules for hook in ("input", "output", "forward")})
            self.lab.exec(node, ["nft", "-f", "-"], stdin=script)

    def recover(self):
        for node in (self.p["a"], self.p["b"]):
            delete_table(self.lab, node, TABLE)
