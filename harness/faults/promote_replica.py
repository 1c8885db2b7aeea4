"""Failover on the database side: the replica stops replicating and becomes writable."""
from ..effects import NONE, Effect
from ..topology import PROTOCOL_SERVERS
from .base import Fault, Param

PROMOTE_SQL = "STOP SLAVE; RESET SLAVE ALL; SET GLOBAL read_only = OFF;"


class PromoteReplica(Fault):
    name = "promote_replica"
    params = {"target": Param("server", "mysql-replica", help="the replica to promote")}

    @classmethod
    def problem(cls, params):
        if params["target"] not in PROTOCOL_SERVERS["mysql"]:
            return f"target {params['target']} is not a database (promote one of {', '.join(PROTOCOL_SERVERS['mysql'])})"
        return None

    def effect(self):
        return Effect(NONE)

    def inject(self):
        self.lab.exec(self.p["target"], ["mariadb", "-e", PROMOTE_SQL])
