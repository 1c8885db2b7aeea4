"""A primary turns read-only in place and keeps its clients' connections. It is the first step of a
switchover that demotes it (MHA's online switch, orchestrator's graceful takeover, a managed
database's planned failover): the server stays up, answers reads, and refuses every write with its
own error (MySQL and MariaDB: 1290, "running with the --read-only option"; PostgreSQL: SQLSTATE
25006, "cannot execute ... in a read-only transaction", its default_transaction_read_only on). No
flow notices; a writer does, at its next write."""
from ..databases.base import DatabaseEngine
import time

from ..measure.effects import NONE, Effect, Landing
from .base import Fault, Setting


class ReadOnly(Fault):
    name = "read_only"
    params = {"target": Setting("database", "db-primary", help="the database server that refuses writes from then on")}

    @classmethod
    def engine_problem(cls, engine: DatabaseEngine) -> str | None:
        return None if engine.refuse_writes_sql else engine.cannot_refuse_writes or f"{engine.title} cannot refuse writes"

    def effect(self) -> Effect:
        return Effect(NONE)

    def inject(self) -> Landing | None:
        """Read-only from some moment between the step's start and the server's own variable saying so."""
        before = time.time()
        self.lab.database.refuse_writes(self.lab, self.p["target"])
        return Landing(before, round(time.time() - before, 6))
