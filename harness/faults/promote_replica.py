"""Failover on the database side: the replica stops replicating and becomes writable (as the
lab's database engine does it: harness/databases/)."""
from ..measure.effects import NONE, Effect, Landing
from .base import Fault, Setting


class PromoteReplica(Fault):
    name = "promote_replica"
    params = {"target": Setting("database", "db-replica", help="the replica to promote")}

    def effect(self) -> Effect:
        return Effect(NONE)

    def inject(self) -> Landing | None:
        """The replica's replication position (GTIDs applied) read just before it is promoted."""
        position = self.lab.database.position(self.lab, self.p["target"])
        self.lab.database.promote(self.lab, self.p["target"])
        return Landing(seen={"position_at_promotion": position})
