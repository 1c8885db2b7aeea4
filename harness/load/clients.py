"""The clients a cell can name (images/client/zoo/README.md) and the settings each takes.

A cell says `client: jdbc` and sets the driver's own settings under the client's name, e.g.
`jdbc: {socketTimeout: 3000}`. Each setting is validated here; the one that bounds how long the
application waits for an answer (a read or socket timeout) becomes the cell's application
timeout, which is all the kernel model needs to know about a driver.
"""
import dataclasses
import re

DEFAULT_CLIENT = "pymysql"       # the lab's own probe: on another engine it speaks that engine's protocol
# What operators call the lab's probe on an engine whose protocol is not MySQL's: {name: engine}.
PROBE_NAMES = {"libpq": "postgres", "psycopg2": "postgres"}
PROTOCOL_TITLES = {"mysql": "MySQL", "postgres": "PostgreSQL"}


@dataclasses.dataclass(frozen=True)
class Setting:
    kind: type                  # int (a count of `unit`s), bool or str (a Go duration)
    unit_s: float = 0.0         # seconds per unit, for int settings that are durations
    minimum: int = 0
    maximum: int = 3_600_000
    meaning: str = ""
    zero_is_none: bool = False  # a limit whose 0 means none at all (its documentation's "0: forever"), not 0 s

    def seconds(self, value):
        """A duration setting's value in seconds; None where it sets no limit (0 that means forever)."""
        seconds = go_duration_s(value) if self.kind is str else value * self.unit_s
        return None if seconds == 0 and self.zero_is_none else seconds


@dataclasses.dataclass(frozen=True)
class Client:
    name: str
    program: str | None         # what runs in the client container (None: the lab's own probe)
    library: str                # the library and how it is pinned
    settings: dict = dataclasses.field(default_factory=dict)
    read_timeout: str | None = None    # the setting that bounds a wait for an answer
    via_libc: bool = True       # connects through libc (an LD_PRELOAD library sees its sockets)
    protocol: str = "mysql"     # the database protocol it speaks (harness/databases/ wire_protocol)
    connect_timeout: str | None = None          # the setting that bounds a connect
    runtime: str = "C"          # what runs it: how soon it reports what its kernel or timer ended is its own
    default_connect_timeout_s: float | None = None  # its default, s (None: none, the kernel's SYN retries decide)

    @property
    def starts_ahead(self):
        """Whether its program can start while the lab comes up and wait at the run's gate, its
        start-up done (the JVMs: ZooGate.java; ~a minute each in an emulated guest)."""
        return self.runtime == "JVM"

    def connect_timeout_s(self, settings):
        """Seconds a connect may take before the driver gives up on it; None: the kernel's SYN
        retries decide (the setting's 0 that means forever, or a driver with no limit by default)."""
        value = dict(settings).get(self.connect_timeout)
        if value is None:
            return self.default_connect_timeout_s
        return self.settings[self.connect_timeout].seconds(value)

    def read_timeout_s(self, settings):
        """Seconds the application waits for an answer before giving up; 0.0 where nothing limits it
        (the setting left out, or its 0 that means forever): the kernel decides."""
        value = dict(settings).get(self.read_timeout)
        if value is None:
            return 0.0
        return self.settings[self.read_timeout].seconds(value) or 0.0


GO_UNITS_S = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "\u03bcs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
GO_PART = re.compile(r"(\d+\.?\d*|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)")


def go_duration_s(text):
    """A Go duration as time.ParseDuration reads it ('2s', '1500ms', '1m30s', '0.5h', and '0',
    the one number it takes without a unit) -> seconds; None for anything else, a negative one
    included (no timeout of the lab's drivers takes it)."""
    if not isinstance(text, str):
        return None
    if text in ("0", "+0"):
        return 0.0
    body = text[1:] if text.startswith("+") else text
    parts = GO_PART.findall(body)
    if not body or "".join(number + unit for number, unit in parts) != body:
        return None
    return sum(float(number) * GO_UNITS_S[unit] for number, unit in parts)


MS = 0.001
CONNECTOR_J = {
    "socketTimeout": Setting(int, MS, meaning="ms a read on the socket may block (0: forever)", zero_is_none=True),
    "connectTimeout": Setting(int, MS, meaning="ms a TCP connect may take (0: forever)", zero_is_none=True),
    "tcpKeepAlive": Setting(bool, meaning="SO_KEEPALIVE on the socket (default true)"),
    "allowPublicKeyRetrieval": Setting(bool, meaning="ask the server for its RSA key (MySQL 9.7's "
                                                     "caching_sha2_password without TLS needs it)"),
}
PGJDBC = {
    "socketTimeout": Setting(int, 1.0, maximum=86_400, meaning="s a read on the socket may block (0: forever)", zero_is_none=True),
    "connectTimeout": Setting(int, 1.0, maximum=86_400, meaning="s a TCP connect may take (0: forever)", zero_is_none=True),
    "loginTimeout": Setting(int, 1.0, maximum=86_400, meaning="s the whole connect and login may take (0: forever)",
                            zero_is_none=True),
    "tcpKeepAlive": Setting(bool, meaning="SO_KEEPALIVE on the socket (pgJDBC's default false)"),
}
HIKARI_POOL = {
    "keepaliveTime": Setting(int, MS, meaning="ms between keepalive checks of an idle pooled connection (0: none)",
                             zero_is_none=True),
    "maxLifetime": Setting(int, MS, meaning="ms after which an idle connection is retired (0: never)",
                           zero_is_none=True),
    "connectionTimeout": Setting(int, MS, minimum=250, meaning="ms a borrow may wait for a connection"),
    "validationTimeout": Setting(int, MS, minimum=250, meaning="ms a liveness check may take"),
    "idleTimeout": Setting(int, MS, meaning="ms an idle connection above minimumIdle is kept (0: for ever)",
                           zero_is_none=True),
    "maximumPoolSize": Setting(int, minimum=1, maximum=16, meaning="connections in the (fixed-size) pool"),
    "aliveBypassWindowMs": Setting(int, MS, meaning="ms since a connection's last use within which a borrow "
                                                   "skips the liveness check (HikariCP's default 500)"),
}
CLIENTS = {c.name: c for c in (
    Client("pymysql", None, "PyMySQL (Debian python3-pymysql), the lab's probe", default_connect_timeout_s=5.0,
           runtime="Python"),
    Client("jdbc", "zoo-jdbc", "MySQL Connector/J 8.4.0", CONNECTOR_J, read_timeout="socketTimeout",
           connect_timeout="connectTimeout", runtime="JVM"),
    Client("hikari", "zoo-hikari", "HikariCP 5.1.0 on Connector/J 8.4.0", {**CONNECTOR_J, **HIKARI_POOL},
           read_timeout="socketTimeout", connect_timeout="connectTimeout", runtime="JVM"),
    Client("go", "zoo-go", "go-sql-driver/mysql v1.7.1 (database/sql, pool of one)", {
        "readTimeout": Setting(str, meaning="I/O read deadline per packet, e.g. '2s' (0, the default: none)",
                               zero_is_none=True),
        "writeTimeout": Setting(str, meaning="I/O write deadline, e.g. '2s' (0, the default: none)", zero_is_none=True),
        "timeout": Setting(str, meaning="dial timeout, e.g. '2s' (0, the default: the OS's)", zero_is_none=True),
    }, read_timeout="readTimeout", via_libc=False, connect_timeout="timeout", runtime="Go"),
    Client("node", "zoo-node", "mysql2 3.11.3 on Node.js (Debian)", {
        "timeout": Setting(int, MS, meaning="ms a query may take before mysql2 gives up on it (0: no limit)",
                           zero_is_none=True),
        "connectTimeout": Setting(int, MS, meaning="ms a connect may take (mysql2's default 10000; 0: no limit)",
                                  zero_is_none=True),
        "enableKeepAlive": Setting(bool, meaning="SO_KEEPALIVE on the socket (default true)"),
        "keepAliveInitialDelay": Setting(int, MS, meaning="ms idle before the first keepalive probe"),
    }, read_timeout="timeout", connect_timeout="connectTimeout", default_connect_timeout_s=10.0,
       runtime="Node.js"),
    Client("libmariadb", "zoo-libmariadb", "MariaDB Connector/C (Debian libmariadb3)", {
        "MYSQL_OPT_READ_TIMEOUT": Setting(int, 1.0, maximum=86_400, meaning="s per read from the server (0: none)",
                                          zero_is_none=True),
        "MYSQL_OPT_WRITE_TIMEOUT": Setting(int, 1.0, maximum=86_400, meaning="s per write to the server (0: none)",
                                           zero_is_none=True),
        "MYSQL_OPT_CONNECT_TIMEOUT": Setting(int, 1.0, maximum=86_400, meaning="s a connect may take (0: none)",
                                             zero_is_none=True),
    }, read_timeout="MYSQL_OPT_READ_TIMEOUT", connect_timeout="MYSQL_OPT_CONNECT_TIMEOUT"),
    Client("pgjdbc", "zoo-pgjdbc", "pgJDBC 42.7.4 (PostgreSQL's JDBC driver)", PGJDBC, read_timeout="socketTimeout",
           protocol="postgres", connect_timeout="connectTimeout", default_connect_timeout_s=10.0,
           runtime="JVM"),
    Client("hikari-pgjdbc", "zoo-hikari-pgjdbc", "HikariCP 5.1.0 on pgJDBC 42.7.4",
           {**PGJDBC, **{k: v for k, v in HIKARI_POOL.items() if k != "maximumPoolSize"}},
           read_timeout="socketTimeout", protocol="postgres", connect_timeout="connectTimeout",
           default_connect_timeout_s=10.0, runtime="JVM"),
    Client("node-postgres", "zoo-node-postgres", "pg (node-postgres) 8.13.1 on Node.js (Debian)", {
        "query_timeout": Setting(int, MS, meaning="ms pg waits for a query's answer before it gives up (0: forever)",
                                 zero_is_none=True),
        "connectionTimeoutMillis": Setting(int, MS, meaning="ms a connect may take (0: forever)", zero_is_none=True),
        "keepAlive": Setting(bool, meaning="SO_KEEPALIVE on the socket (pg's default false)"),
        "keepAliveInitialDelayMillis": Setting(int, MS, meaning="ms idle before the first keepalive probe"),
    }, read_timeout="query_timeout", protocol="postgres", connect_timeout="connectionTimeoutMillis",
       runtime="Node.js"),
    Client("pgx", "zoo-pgx", "pgx v5.7.6 (Go, database/sql via pgx/stdlib, pool of one)", {
        "queryTimeout": Setting(str, meaning="the application's context deadline per query, e.g. '3s' (pgx has "
                                             "no read timeout of its own; 0: none)", zero_is_none=True),
        "connect_timeout": Setting(int, 1.0, maximum=86_400, meaning="s a connect may take (pgx's; 0: forever)",
                                   zero_is_none=True),
        "tcp_user_timeout": Setting(int, MS, meaning="libpq's name, not pgx's: pgx sends it to the server as a "
                                                     "run-time setting, so the server's socket takes it, not the "
                                                     "client's"),
    }, read_timeout="queryTimeout", via_libc=False, protocol="postgres", connect_timeout="connect_timeout",
       runtime="Go"),
    # sysbench has no read timeout of its own; it runs on the scenario's load.sysbench tables.
    Client("sysbench", "zoo-sysbench", "sysbench 1.0.20 (Debian) oltp_read_only, 1 thread, on MariaDB Connector/C"),
)}


JAVA_LIBRARIES = "/usr/local/lib/zoo/java/lib"
# What prints each client's library version as the client image holds it (env.json's versions;
# sysbench's own is there already).
VERSION_COMMANDS = {
    "pymysql": "python3 -c 'import pymysql; print(\"PyMySQL\", pymysql.__version__)'",
    "jdbc": f"ls {JAVA_LIBRARIES} | grep mysql-connector",
    "hikari": f"ls {JAVA_LIBRARIES} | grep -E 'HikariCP|mysql-connector' | tr '\\n' ' '",
    "go": "grep -ao 'go-sql-driver/mysql.v[0-9][0-9.]*' /usr/local/bin/zoo-go | head -1 | tr '\\t' ' '",
    "node": "node -p '\"mysql2 \" + require(\"/usr/local/lib/zoo/node/node_modules/mysql2/package.json\").version'",
    "pgjdbc": f"ls {JAVA_LIBRARIES} | grep postgresql",
    "hikari-pgjdbc": f"ls {JAVA_LIBRARIES} | grep -E 'HikariCP|postgresql' | tr '\\n' ' '",
    "node-postgres": "node -p '\"pg \" + require(\"/usr/local/lib/zoo/node/node_modules/pg/package.json\").version'",
    "pgx": "grep -ao 'jackc/pgx/v5@v[0-9][0-9.]*' /usr/local/bin/zoo-pgx | head -1 | sed 's/.*@/pgx /'",
    "libmariadb": "dpkg-query -W -f='libmariadb3 ${Version}' libmariadb3",
}
