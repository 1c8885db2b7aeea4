"""A database server ends its clients' connections and stays up. A demoted primary does so when it
is restarted as a reader (a managed database's failover), when MHA's online switch kills the old
master's application threads, when Patroni restarts a demoted PostgreSQL; here MySQL's and
MariaDB's KILL, PostgreSQL's pg_terminate_backend(), its replication's connections kept. The server
closes each connection, so its client is told at its next read (a FIN, then a reset for what it
sends after) and reconnects to wherever its name, its caches or its host list point it: the old
primary still answers there."""
from ..measure.effects import RESET, Effect, Landing
from .base import Fault, Setting


class EndConnections(Fault):
    name = "end_connections"
    params = {"target": Setting("database", "db-primary", help="the database server that ends its clients' connections")}

    def effect(self) -> Effect:
        return Effect(RESET)

    def inject(self) -> Landing | None:
        """Ended between the two stamps the server's own clock took around its KILLs."""
        before, after, ended = self.lab.database.end_client_connections(self.lab, self.p["target"])
        return Landing(before, round(after - before, 6), {"connections_ended": ended})
