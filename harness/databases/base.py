"""What the lab needs of a database engine (docs/adding-a-database-engine.md): faults, runs and
measurement call these, never a server's process name or SQL of their own.

  image, server_process, version_command     what runs in db-primary and db-replica
  services()                                 Compose overrides of those two services
  replication_modes                          what the image's replication set-up offers
  promote(lab, server)                       the replica stops replicating and takes writes
  sql_command(sql), query(lab, server, sql)  the server's own client running SQL; the rows it answers
  position(lab, server)                      what a server applied (GTIDs, a WAL position)
  refuse_writes / end_client_connections     a primary demoted in place: read-only, its clients' connections ended
  pause / resume / kill(lab, server)         the server process frozen, thawed, killed
  create_account(lab, server, user, ...)     a clients' login, logged in once if asked
"""
import time
from typing import Any

from ..errors import LabError
from ..lab_commands import RunsCommands
from ..registered import Registered, Registry
from .server_process import ServerProcess

DATABASES: Registry[type["DatabaseEngine"]] = Registry("database engine")   # each DatabaseEngine subclass registers itself when imported
DEFAULT_DATABASE = "mariadb"
# a reload is asynchronous (PostgreSQL's postmaster rereads its configuration when it gets to it)
REFUSES_WRITES_WITHIN_S = 10


def database(name: str | None = None) -> "DatabaseEngine":
    """The engine named `name` (None: the default), its module imported with the package."""
    return DATABASES[name or DEFAULT_DATABASE]()


class DatabaseEngine(Registered, ServerProcess):
    registry = DATABASES
    name = ""                    # what DB_ENGINE names it
    title = ""                   # how a page names it
    image = ""                   # the image both database servers run
    server_process = ""          # the server's process name (pkill -x)
    sql_client: tuple[str, ...] = ()   # runs SQL (-e) inside a server's container
    version_command: tuple[str, ...] = ()   # prints the server's version
    stop_receiving_sql = ""      # stops the replica receiving (its applier goes on)
    promote_sql = ""             # what makes a replica the primary, once it applied what it received
    position_variable = ""       # the GTID set of what a server applied
    replication_modes: tuple[str, ...] = ("async", "semi-sync")
    apply_wait_s: float = 10     # how long a promotion waits for the replica to apply what it received
    full_login_options: tuple[str, ...] = ()   # what sql_client needs to log in over TCP with a password the server has not cached
    port = 3306                  # where the servers listen: the lab's database port (VIP:3306) whatever the engine
    usual_port = 3306            # where the engine listens by its own default (a page says when the lab differs)
    wire_protocol = "mysql"      # what the probe speaks to it (images/client/probe.py --proto)
    sysbench_driver = "mysql"    # sysbench's --db-driver for it
    # the library the lab's probe and writer reach it with, and the command that prints its version
    # (None: the default client's own, its Client.version_command in load/clients.py)
    probe_library: tuple[str, str] | None = None
    probe_title: str | None = None   # how the pages name the probe's client (None: probe_library's name)
    probe_host_list = False      # the probe's library takes several hosts and tries them in order
    probe_session_attrs = False  # the probe's library takes target_session_attrs (libpq's, load/driver_settings.py)
    version_pattern = r"Ver (\S+)"   # the version in version_command's line
    kernel_gave_up = "MySQL error 2013, Lost connection"   # what its clients say when the kernel gives up
    client_cures = ""            # what its own client library offers against the hang (make explain)
    version_sql = "SELECT VERSION()"       # the version, as the server reports it over SQL
    semi_sync_status_sql: str | None = "SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync%'"   # None: no semi-sync
    read_only_sql = "SELECT @@read_only"   # 1 while the server refuses writes (a replica), else 0
    # a primary turned read-only in place (fault read_only): what makes it refuse every write of the
    # clients' login, and the variable that then says so ("1" or "on"); empty: it cannot, and
    # cannot_refuse_writes says why
    refuse_writes_sql: tuple[str, ...] = ()
    writes_refused_sql = ""
    cannot_refuse_writes = ""
    # one KILL statement per client connection: not the server's own threads, not a replica's binlog dump
    client_connections_sql = ("SELECT CONCAT('KILL ', id, ';') FROM information_schema.processlist "
                              "WHERE id <> CONNECTION_ID() AND user NOT IN ('system user', 'event_scheduler') "
                              "AND command NOT IN ('Daemon', 'Binlog Dump', 'Binlog Dump GTID')")
    # HAProxy's `option mysql-check` against it (None: it works; else why not): docs/facts/mysql.md
    haproxy_mysql_check_fails: str | None = None

    def probe_connect_timeout_s(self, given: float | None) -> float | None:
        """The connect timeout the probe's library keeps when a cell gives `given` s (None: its
        default; 0: none); ValueError if the library cannot take it."""
        return given

    def services(self) -> dict[str, dict[str, Any]]:
        """{service: Compose overrides} for the database servers (empty: compose.yaml's own)."""
        return {}

    def promote(self, lab: RunsCommands, server: str) -> None:
        """Stop receiving, let the replica apply what it already received (at most apply_wait_s),
        then promote_sql. Resetting the replica first would throw away received, unapplied
        transactions: semi-sync acknowledges receipt, not apply (a write-loss-semi-sync run lost
        one acknowledged write that way)."""
        client = " ".join(self.sql_client)
        script = (f'{client} -e "{self.stop_receiving_sql}"; '
                  f'for _ in $(seq 1 {self.apply_wait_s * 20}); do '
                  f'{client} --vertical -e "SHOW REPLICA STATUS" | grep -q "read all relay log" && break; sleep 0.05; '
                  f'done; {client} -e "{self.promote_sql}"')
        lab.exec(server, ["bash", "-c", script])

    def create_account(self, lab: RunsCommands, server: str, user: str, password: str,
                       log_in_once: bool = False) -> None:
        """A login of the clients' kind (every right on the sbtest schema). log_in_once: it then logs
        in once on `server` over TCP, as an application's would (MySQL caches the login from then on)."""
        self.query(lab, server, f"CREATE USER IF NOT EXISTS '{user}'@'%' IDENTIFIED BY '{password}'; "
                                f"GRANT ALL PRIVILEGES ON sbtest.* TO '{user}'@'%'")
        if log_in_once:
            lab.exec(server, [*self.sql_client, *self.full_login_options, "--host", "127.0.0.1", "--user", user,
                              f"--password={password}", "-e", "SELECT 1"])

    def sql_command(self, sql: str) -> list[str]:
        """The command that runs `sql` with the server's own client inside its container, its rows
        printed a line each, fields tab-separated, no header."""
        return [*self.sql_client, "-N", "-B", "-e", sql]

    def query(self, lab: RunsCommands, server: str, sql: str, timeout: float = 30) -> list[list[str]]:
        """Rows (lists of fields) a server answers, read with its own client inside its container."""
        out = lab.exec(server, self.sql_command(sql), timeout=timeout).stdout
        return [line.split("\t") for line in out.splitlines() if line]

    def position(self, lab: RunsCommands, server: str) -> str:
        """The transactions a server has applied, as its GTID set says."""
        rows = self.query(lab, server, f"SELECT {self.position_variable}")
        return rows[0][0].replace("\\n", "") if rows else ""

    def refuse_writes(self, lab: RunsCommands, server: str) -> None:
        """The server refuses every write of the clients' logins from now on, and keeps their
        connections; LabError if its own variable does not say so afterwards."""
        for sql in self.refuse_writes_sql:
            self.query(lab, server, sql)
        deadline = time.monotonic() + REFUSES_WRITES_WITHIN_S
        while (said := self.query(lab, server, self.writes_refused_sql)) not in ([["1"]], [["on"]]):
            if time.monotonic() > deadline:
                raise LabError(f"{server}: still takes writes {REFUSES_WRITES_WITHIN_S:g} s after "
                               f"{'; '.join(self.refuse_writes_sql)} ({said})")
            time.sleep(0.1)

    def end_client_connections(self, lab: RunsCommands, server: str) -> tuple[float, float, int]:
        """Every client connection to the server ended by the server itself (its replication's
        kept): (when it began, when it was done, how many it ended), on the server's clock."""
        client = " ".join(self.sql_client)
        script = (f'set -e; date +%s.%N; {client} -N -B -e "$1" > /tmp/lab-end-connections; '
                  f'{client} -f < /tmp/lab-end-connections 2>/dev/null || true; '   # one may have ended meanwhile
                  'date +%s.%N; wc -l < /tmp/lab-end-connections')
        before, after, ended = lab.exec(server, ["bash", "-c", script, "end-connections",
                                                 self.client_connections_sql]).stdout.split()
        return float(before), float(after), int(ended)
