"""Failover on the database side: the replica stops replicating and becomes writable."""
from .base import Fault, Param

PROMOTE_SQL = "STOP SLAVE; RESET SLAVE ALL; SET GLOBAL read_only = OFF;"


class PromoteReplica(Fault):
    name = "promote_replica"
    reversible = False
    params = {"target": Param("server", "mysql-replica", help="the replica to promote")}

    def inject(self):
        self.lab.exec(self.p["target"], ["mariadb", "-e", PROMOTE_SQL])
