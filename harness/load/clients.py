"""The clients a cell can name (images/client/zoo/README.md) and the settings each takes.

A cell says `client: jdbc` and sets the driver's own settings under the client's name, e.g.
`jdbc: {socketTimeout: 3000}`. Each setting is validated here; the one that bounds how long the
application waits for an answer (a read or socket timeout) becomes the cell's application
timeout, which is all the kernel model needs to know about a driver.
"""
import dataclasses
from collections.abc import Iterable
from typing import Any

from ..registered import Registry
from .driver_settings import (AWS_HOST_MONITOR, CONNECTOR_J, HIKARI_POOL, JVM_NAME_CACHE, MARIADB_J, MS, PGJDBC,
                              TARGET_SESSION_ATTRS, driver_setting)
from ..setting import Setting

DEFAULT_CLIENT = "pymysql"       # the lab's own probe: on another engine it speaks that engine's protocol
# What operators call the lab's probe on an engine whose protocol is not MySQL's: {name: engine}.
PROBE_NAMES = {"libpq": "postgres", "psycopg2": "postgres"}
PROTOCOL_TITLES = {"mysql": "MySQL", "postgres": "PostgreSQL"}


@dataclasses.dataclass(frozen=True)
class Client:
    name: str
    program: str | None         # what runs in the client container (None: the lab's own probe)
    library: str                # the library and how it is pinned
    settings: dict[str, Setting] = dataclasses.field(default_factory=dict)
    read_timeout: str | None = None    # the setting that bounds a wait for an answer
    via_libc: bool = True       # connects through libc (an LD_PRELOAD library sees its sockets)
    protocol: str = "mysql"     # the database protocol it speaks (harness/databases/ wire_protocol)
    connect_timeout: str | None = None          # the setting that bounds a connect
    runtime: str = "C"          # what runs it: how soon it reports what its kernel or timer ended is its own
    default_connect_timeout_s: float | None = None  # its default, s (None: none, the kernel's SYN retries decide)
    version_command: str | None = None  # prints its library's version as the client image holds it (env.json)
    process: str | None = None  # what `pkill -f` matches to stop its program (a JVM's command line names the class)
    notes: str = ""             # what the lab measured of it that its documentation leaves open (make explain)
    mysql_login: str = ""       # what a first login to MySQL 9.7 without TLS does (tests/lab/test_mysql_auth.py)
    host_list: bool = False     # it takes several hosts and tries them in order (a multi-host URL)
    host_monitor: bool = False  # a monitor of its own aborts a connection whose host stops answering (measure/host_monitor.py)

    def __post_init__(self) -> None:
        if self.program and not self.process:
            raise ValueError(f"client {self.name}: runs {self.program} and names no process to stop it by "
                             "(`process`, what `pkill -f` matches)")

    @property
    def stop_pattern(self) -> str:
        """`process`: what a run's stop matches; only a zoo client (one with a program) is stopped by it."""
        if not self.process:
            raise ValueError(f"client {self.name} runs as the lab's own probe: nothing of its own to stop")
        return self.process

    @property
    def starts_ahead(self) -> bool:
        """Whether its program can start while the lab comes up and wait at the run's gate, its
        start-up done (the JVMs: ZooGate.java; ~a minute each in an emulated guest)."""
        return self.runtime == "JVM"

    @property
    def stops_on_eof(self) -> bool:
        """Whether its program ends once its stdin closes, so a run stops it without an exec (the
        JVMs: ZooStdinStop.java, with ZOO_STOP_ON_EOF=1; a round of pkills on a busy emulated guest
        took ~8 s, and the JVMs were killed at the stop's limit)."""
        return self.runtime == "JVM"

    def connect_timeout_s(self, settings: Iterable[tuple[str, Any]]) -> float | None:
        """Seconds a connect may take before the driver gives up on it; None: the kernel's SYN
        retries decide (the setting's 0 that means forever, or a driver with no limit by default)."""
        value = None if self.connect_timeout is None else dict(settings).get(self.connect_timeout)
        if self.connect_timeout is None or value is None:
            return self.default_connect_timeout_s
        return self.settings[self.connect_timeout].seconds(value)

    def read_timeout_s(self, settings: Iterable[tuple[str, Any]]) -> float:
        """Seconds the application waits for an answer before giving up; 0.0 where nothing limits it
        (the setting left out, or its 0 that means forever): the kernel decides."""
        value = None if self.read_timeout is None else dict(settings).get(self.read_timeout)
        if self.read_timeout is None or value is None:
            return 0.0
        return self.settings[self.read_timeout].seconds(value) or 0.0


JAVA_LIBRARIES = "/usr/local/lib/zoo/java/lib"
CLIENTS = Registry("client", (
    Client("pymysql", None, "PyMySQL (Debian python3-pymysql), the lab's probe", default_connect_timeout_s=5.0,
           runtime="Python",
           version_command="python3 -c 'import pymysql; print(\"PyMySQL\", pymysql.__version__)'",
           mysql_login="logs in (PyMySQL 1.0.2 asks for the server's RSA key, with python3-cryptography "
                       "installed; without it: RuntimeError \"'cryptography' package is required\")."),
    Client("jdbc", "zoo-jdbc", "MySQL Connector/J 8.4.0", {**CONNECTOR_J, **JVM_NAME_CACHE}, read_timeout="socketTimeout",
           connect_timeout="connectTimeout", runtime="JVM", host_list=True,
           version_command=f"ls {JAVA_LIBRARIES} | grep mysql-connector",
           process="JdbcProbe",
           mysql_login="fails: \"Public Key Retrieval is not allowed\"; allowPublicKeyRetrieval=true (or TLS) "
                       "fixes it."),
    Client("mariadb-jdbc", "zoo-mariadb-jdbc", "MariaDB Connector/J 3.5.11", {**MARIADB_J, **JVM_NAME_CACHE},
           read_timeout="socketTimeout", connect_timeout="connectTimeout", default_connect_timeout_s=30.0,
           runtime="JVM", host_list=True,
           version_command=f"ls {JAVA_LIBRARIES} | grep mariadb-java-client",
           process="MariaDbJdbcProbe",
           notes="A host list is a sequential URL (jdbc:mariadb:sequential://a,b/): the hosts in order, but one "
                 "that failed is skipped by every connection of the JVM for deniedListTimeout (60 s), and at a "
                 "lost connection the driver connects to the next host itself before it reports the error "
                 "(SQLState 25S03, \"Driver has reconnect connection after a communications link failure\"): "
                 "measured in dns-failover, back 0.01 s after its error where Connector/J took the connect "
                 "timeout.",
           mysql_login="fails: \"RSA public key is not available client side\"; allowPublicKeyRetrieval=true "
                       "(or TLS) fixes it."),
    Client("aws-jdbc", "zoo-aws-jdbc", "AWS Advanced JDBC Wrapper 4.3.0 (host monitor efm2) on Connector/J 8.4.0",
           {**CONNECTOR_J, **AWS_HOST_MONITOR, **JVM_NAME_CACHE}, read_timeout="socketTimeout",
           connect_timeout="connectTimeout", runtime="JVM", host_monitor=True,
           version_command=f"ls {JAVA_LIBRARIES} | grep -E 'aws-advanced|mysql-connector' | tr '\\n' ' '",
           process="AwsWrapperProbe",
           notes="The lab loads the wrapper's host-monitoring plugin (efm2) alone: its failover plugins read an "
                 "Aurora cluster's topology, which the lab has not. The monitor probes the host by the name or "
                 "address the URL gives, not the server the connection reached: once that name or VIP leads to "
                 "a live server, its probes succeed and it aborts nothing.",
           mysql_login="fails as Connector/J's does: \"Public Key Retrieval is not allowed\"; "
                       "allowPublicKeyRetrieval=true fixes it."),
    Client("hikari", "zoo-hikari", "HikariCP 5.1.0 on Connector/J 8.4.0", {**CONNECTOR_J, **HIKARI_POOL, **JVM_NAME_CACHE},
           read_timeout="socketTimeout", connect_timeout="connectTimeout", runtime="JVM",
           version_command=f"ls {JAVA_LIBRARIES} | grep -E 'HikariCP|mysql-connector' | tr '\\n' ' '",
           process="HikariProbe",
           notes="Measured (client-zoo-short, HikariCP 5.1.0, pool of 3, tcp_retries2=5): the fault catches the"
                 " pool's idle connections too. HikariCP checks a connection before a borrow only if it was "
                 "idle longer than aliveBypassWindowMs (500 ms): each dead one then costs validationTimeout (5 "
                 "s): back after 23.7 s, not 13.7. With the check skipped it hands each dead one out and its "
                 "query waits out the budget again: back after 40.8 s.",
           mysql_login="fails as the pool sees it: \"Connection is not available, request timed out\" after "
                       "connectionTimeout (the cause, Public Key Retrieval, is not shown); "
                       "allowPublicKeyRetrieval=true fixes it."),
    Client("go", "zoo-go", "go-sql-driver/mysql v1.7.1 (database/sql, pool of one)", {
        "readTimeout": driver_setting(str, meaning="I/O read deadline per packet, e.g. '2s' (0, the default: none)",
                                      zero_is_none=True),
        "writeTimeout": driver_setting(str, meaning="I/O write deadline, e.g. '2s' (0, the default: none)", zero_is_none=True),
        "timeout": driver_setting(str, meaning="dial timeout, e.g. '2s' (0, the default: the OS's)", zero_is_none=True),
    }, read_timeout="readTimeout", via_libc=False, connect_timeout="timeout", runtime="Go",
           version_command="grep -ao 'go-sql-driver/mysql.v[0-9][0-9.]*' /usr/local/bin/zoo-go | head -1 | tr '\\t' ' '",
           process="zoo-go",
           notes="go-sql-driver/mysql reports a dead connection as 'invalid connection' (driver.ErrBadConn is "
                 "only returned before a query was sent, so database/sql does not retry it).",
           mysql_login="logs in (go-sql-driver/mysql v1.7.1 asks for the server's RSA key)."),
    Client("node", "zoo-node", "mysql2 3.11.3 on Node.js (Debian)", {
        "timeout": driver_setting(int, MS, meaning="ms a query may take before mysql2 gives up on it (0: no limit)",
                                  zero_is_none=True),
        "connectTimeout": driver_setting(int, MS, meaning="ms a connect may take (mysql2's default 10000; 0: no limit)",
                                         zero_is_none=True),
        "enableKeepAlive": driver_setting(bool, meaning="SO_KEEPALIVE on the socket (default true)"),
        "keepAliveInitialDelay": driver_setting(int, MS, meaning="ms idle before the first keepalive probe"),
    }, read_timeout="timeout", connect_timeout="connectTimeout", default_connect_timeout_s=10.0,
       runtime="Node.js",
           version_command="node -p '\"mysql2 \" + require(\"/usr/local/lib/zoo/node/node_modules/mysql2/package.json\").version'",
           process="zoo/node/probe.js",
           mysql_login="logs in (mysql2 3.11.3 asks for the server's RSA key)."),
    Client("libmariadb", "zoo-libmariadb", "MariaDB Connector/C (Debian libmariadb3)", {
        "MYSQL_OPT_READ_TIMEOUT": driver_setting(int, 1.0, maximum=86_400, meaning="s per read from the server (0: none)",
                                                 zero_is_none=True),
        "MYSQL_OPT_WRITE_TIMEOUT": driver_setting(int, 1.0, maximum=86_400, meaning="s per write to the server (0: none)",
                                                  zero_is_none=True),
        "MYSQL_OPT_CONNECT_TIMEOUT": driver_setting(int, 1.0, maximum=86_400, meaning="s a connect may take (0: none)",
                                                    zero_is_none=True),
    }, read_timeout="MYSQL_OPT_READ_TIMEOUT", connect_timeout="MYSQL_OPT_CONNECT_TIMEOUT",
           version_command="dpkg-query -W -f='libmariadb3 ${Version}' libmariadb3",
           process="zoo-libmariadb",
           notes="Measured (client-zoo-short, MariaDB Connector/C 3.3.20): MYSQL_OPT_READ_TIMEOUT=3 ended the "
                 "wait 3.08 s after the fault: the value counts once, not three times as MySQL's manual says of"
                 " libmysqlclient's read timeout.",
           mysql_login="logs in (MariaDB Connector/C 3.3.20 fetches the server's RSA key unasked)."),
    Client("pgjdbc", "zoo-pgjdbc", "pgJDBC 42.7.4 (PostgreSQL's JDBC driver)", {**PGJDBC, **JVM_NAME_CACHE}, read_timeout="socketTimeout",
           protocol="postgres", connect_timeout="connectTimeout", default_connect_timeout_s=10.0,
           runtime="JVM", host_list=True,
           version_command=f"ls {JAVA_LIBRARIES} | grep postgresql",
           process="PgJdbcProbe"),
    Client("hikari-pgjdbc", "zoo-hikari-pgjdbc", "HikariCP 5.1.0 on pgJDBC 42.7.4",
           {**PGJDBC, **{k: v for k, v in HIKARI_POOL.items() if k != "maximumPoolSize"}, **JVM_NAME_CACHE},
           read_timeout="socketTimeout", protocol="postgres", connect_timeout="connectTimeout",
           default_connect_timeout_s=10.0, runtime="JVM",
           version_command=f"ls {JAVA_LIBRARIES} | grep -E 'HikariCP|postgresql' | tr '\\n' ' '",
           process="zoo.engine=postgres HikariProbe"),
    Client("node-postgres", "zoo-node-postgres", "pg (node-postgres) 8.13.1 on Node.js (Debian)", {
        "query_timeout": driver_setting(int, MS, meaning="ms pg waits for a query's answer before it gives up (0: forever)",
                                        zero_is_none=True),
        "connectionTimeoutMillis": driver_setting(int, MS, meaning="ms a connect may take (0: forever)", zero_is_none=True),
        "keepAlive": driver_setting(bool, meaning="SO_KEEPALIVE on the socket (pg's default false)"),
        "keepAliveInitialDelayMillis": driver_setting(int, MS, meaning="ms idle before the first keepalive probe"),
    }, read_timeout="query_timeout", protocol="postgres", connect_timeout="connectionTimeoutMillis",
       runtime="Node.js",
           version_command="node -p '\"pg \" + require(\"/usr/local/lib/zoo/node/node_modules/pg/package.json\").version'",
           process="zoo/node/probe-pg.js"),
    Client("pgx", "zoo-pgx", "pgx v5.7.6 (Go, database/sql via pgx/stdlib, pool of one)", {
        "queryTimeout": driver_setting(str, meaning="the application's context deadline per query, e.g. '3s' (pgx has "
                                                    "no read timeout of its own; 0: none)", zero_is_none=True),
        "connect_timeout": driver_setting(int, 1.0, maximum=86_400, meaning="s a connect may take (pgx's; 0: forever)",
                                          zero_is_none=True),
        "target_session_attrs": driver_setting(str, choices=TARGET_SESSION_ATTRS,
                                               meaning="which server of its host list it keeps (pgx asks each once "
                                                       "connected; default any)", picks_a_server=True),
        "tcp_user_timeout": driver_setting(int, MS, meaning="libpq's name, not pgx's: pgx sends it to the server as a "
                                                            "run-time setting, so the server's socket takes it, not the "
                                                            "client's"),
    }, read_timeout="queryTimeout", via_libc=False, protocol="postgres", connect_timeout="connect_timeout",
       runtime="Go", host_list=True,
           version_command="grep -ao 'jackc/pgx/v5@v[0-9][0-9.]*' /usr/local/bin/zoo-pgx | head -1 | sed 's/.*@/pgx /'",
           process="zoo-pgx",
           notes="Measured (client-zoo-pg, pgx v5.7.6): when the kernel gives up, pgx reports 'unexpected EOF' "
                 "(the ETIMEDOUT is lost); its cure is a context deadline per query (queryTimeout here). Go's "
                 "runtime never takes TCP_USER_TIMEOUT from a preloaded library, and libpq's tcp_user_timeout "
                 "in pgx's connection string goes to the server as a run-time setting."),
    # sysbench has no read timeout of its own; it runs on the scenario's load.sysbench tables.
    Client("sysbench", "zoo-sysbench", "sysbench 1.0.20 (Debian) oltp_read_only, 1 thread, on MariaDB Connector/C",
           process="sysbench oltp_read_only",
           notes="sysbench 1.0.20 has no read timeout of its own: only the kernel's knobs (tcp_retries2, "
                 "TCP_USER_TIMEOUT, which the preloaded libsockopts sets on its libc sockets) bound its wait.",
           mysql_login="logs in (MariaDB Connector/C 3.3.20 fetches the server's RSA key unasked)."),
))
