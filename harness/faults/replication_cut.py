"""Replication cut off: the replica receives nothing from the primary (and sends nothing back),
while the clients' flows go on untouched. Before a failover it leaves the replica behind by
every write the primary acknowledges meanwhile: async replication loses them at promotion,
semi-sync holds each commit until its timeout (then falls back to async and loses them too)."""
from typing import Any

from ..measure.effects import NONE, Effect, Landing
from .base import Fault, Setting, delete_table, nft_table_script

TABLE = "blackhole_fault_replication"


class ReplicationCut(Fault):
    name = "replication_cut"
    params = {"replica": Setting("database", "db-replica", help="the replica cut off from its primary"),
              "primary": Setting("database", "db-primary", help="the primary it replicates from")}

    @classmethod
    def problem(cls, params: dict[str, Any]) -> str | None:
        if params["replica"] == params["primary"]:
            return "replica and primary are the same server"
        return None

    def acts_inside(self) -> set[str]:
        return {self.p["replica"]}

    def effect(self) -> Effect:
        return Effect(NONE)

    def inject(self) -> Landing | None:
        addresses = ", ".join(self.lab.addresses(self.p["primary"]))
        script = nft_table_script(TABLE, {"input": [f"ip saddr {{ {addresses} }} drop"],
                                          "output": [f"ip daddr {{ {addresses} }} drop"]})
        self.lab.exec(self.p["replica"], ["nft", "-f", "-"], stdin=script)
        return None                  # the step's own start and duration bracket it

    def recover(self) -> None:
        delete_table(self.lab, self.p["replica"], TABLE)
