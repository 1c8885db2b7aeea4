"""PostgreSQL 15 from Debian bookworm (images/postgres): a streaming replica copied from the
primary with pg_basebackup, promoted with pg_promote(). It listens on the lab's database port
(3306), so every director, check and client reaches it where they reach MySQL; the probe speaks
its protocol through libpq (images/client/libpq.py)."""
from typing import Any

from ..errors import LabError
from ..lab_commands import RunsCommands
from .base import DatabaseEngine

IMAGE = "blackhole-lab/postgres:dev"
DATA = "/var/lib/postgresql/data"
LIBPQ_LEAST_CONNECT_TIMEOUT_S = 2.0


class PostgreSQL(DatabaseEngine):
    name = "postgres"
    usual_port = 5432
    title = "PostgreSQL"
    image = IMAGE
    server_process = "postgres"
    sql_client = ("psql", "-qAt", "-v", "ON_ERROR_STOP=1", "-p", "3306", "-h", "/run/postgresql", "-U", "postgres",
                  "-d", "sbtest")
    version_command = ("postgres", "--version")
    wire_protocol = "postgres"
    probe_title = "libpq"
    probe_library = ("libpq", "dpkg-query -W -f='libpq5 ${Version}' libpq5")
    probe_host_list = True             # libpq's host=a,b
    probe_session_attrs = True         # libpq's target_session_attrs
    version_pattern = r"\(PostgreSQL\) (\S+)"
    kernel_gave_up = 'libpq: "could not receive data from server: Connection timed out"'
    client_cures = ("libpq's own: tcp_user_timeout=<ms> (TCP_USER_TIMEOUT on its socket); keepalives_idle, "
                    "keepalives_interval, keepalives_count (keepalive is on by default at the kernel's 7200/75/9 s; "
                    "it ends an idle connection only). libpq has no read timeout: statement_timeout is the "
                    "server's own clock and never fires against a dead server.")
    sysbench_driver = "pgsql"    # Debian's sysbench 1.0.20: no reconnect, it stops at its first lost connection
    version_sql = "SHOW server_version"
    read_only_sql = "SELECT pg_is_in_recovery()::int"
    replication_modes = ("async", "sync")      # sync: synchronous_standby_names '*', no timeout
    semi_sync_status_sql = None
    # read-only in place: every new transaction read-only (a guard a session may lift with SET, not a
    # standby: Patroni demotes by restarting the server as one)
    refuse_writes_sql = ("ALTER SYSTEM SET default_transaction_read_only = on", "SELECT pg_reload_conf()")
    writes_refused_sql = "SHOW default_transaction_read_only"

    def probe_connect_timeout_s(self, given: float | None) -> float | None:
        """libpq's connect_timeout: whole seconds, each host's try; 0: none; 1 is taken as 2 (libpq 15:
        measured in the client image, docs/facts/postgres.md)."""
        if given and given != int(given):
            raise ValueError(f"libpq's connect_timeout is whole seconds, not {given:g}")
        return max(given, LIBPQ_LEAST_CONNECT_TIMEOUT_S) if given else given

    def services(self) -> dict[str, dict[str, Any]]:
        # db-primary builds the image (compose.yaml: one service per tag), the replica runs it
        return {"db-primary": {"image": IMAGE, "build": {"context": "images/postgres"}, "tmpfs": [DATA]},
                "db-replica": {"image": IMAGE, "tmpfs": [DATA]}}

    def sql_command(self, sql: str) -> list[str]:
        return [*self.sql_client, "-F", "\t", "-c", sql]

    def promote(self, lab: RunsCommands, server: str) -> None:
        """pg_promote() waits (up to 60 s) until the replica has replayed what it received and left
        recovery: nothing it received is thrown away."""
        rows = self.query(lab, server, "SELECT pg_promote(true, 60)", timeout=70)
        if rows != [["t"]]:
            raise LabError(f"{server}: pg_promote() answered {rows}")

    def end_client_connections(self, lab: RunsCommands, server: str) -> tuple[float, float, int]:
        """pg_terminate_backend() on every client backend (walsenders kept)."""
        script = (f'date +%s.%N; {" ".join(self.sql_client)} -c "$1"; date +%s.%N')
        before, ended, after = lab.exec(server, ["bash", "-c", script, "end-connections",
                                                 "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                                 "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"]
                                        ).stdout.split()
        return float(before), float(after), int(ended)

    def create_account(self, lab: RunsCommands, server: str, user: str, password: str,
                       log_in_once: bool = False) -> None:
        """A login with every right on the sbtest database; log_in_once: it logs in once over TCP
        (PostgreSQL caches no login: the first one costs what every later one does)."""
        role = f'"{user}"'
        self.query(lab, server, f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{user}') THEN "
                                f"CREATE ROLE {role} LOGIN PASSWORD '{password}'; END IF; END $$; "
                                f"GRANT ALL ON DATABASE sbtest TO {role}; GRANT ALL ON SCHEMA public TO {role}")
        if log_in_once:
            lab.exec(server, ["env", f"PGPASSWORD={password}", "psql", "-qAt", "-h", "127.0.0.1", "-p", "3306",
                              "-U", user, "-d", "sbtest", "-c", "SELECT 1"])

    def position(self, lab: RunsCommands, server: str) -> str:
        """The WAL position a server has applied: the primary's current one, a replica's replayed one."""
        rows = self.query(lab, server, "SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() "
                                       "ELSE pg_current_wal_lsn() END")
        return rows[0][0] if rows else ""
