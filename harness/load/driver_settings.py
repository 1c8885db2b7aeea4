"""What a driver's settings are: each a named value with its unit and range, and what 0 means by
its own documentation; the tables shared by several clients (Connector/J's, pgJDBC's, HikariCP's)."""
from ..setting import Setting


def driver_setting(kind: type, unit_s: float = 0.0, minimum: int = 0, maximum: int = 3_600_000, meaning: str = "",
                          zero_is_none: bool = False, jvm_security: bool = False, choices: tuple[str, ...] = (),
                          picks_a_server: bool = False) -> Setting:
    """A driver's setting (harness/setting.py's Setting) as its documentation writes it: int (a count
    of unit_s seconds, 0-3,600,000 unless said), bool, or str: a Go duration, or one of choices."""
    if choices and kind is not str:
        raise ValueError("only a str setting names one of choices")
    named = {int: "int", bool: "bool"}.get(kind) or ("str" if choices else "go_duration")
    return Setting(named, minimum=minimum if kind is int else None, maximum=maximum if kind is int else None,
                   choices=choices, help=meaning, unit_s=unit_s, zero_is_none=zero_is_none, jvm_security=jvm_security,
                   picks_a_server=picks_a_server)


MS = 0.001
# The JVM's cache of looked-up names (docs/facts/dns.md): a security property, given to the JVM over its
# java.security (images/client/zoo/bin/zoo-java), never to the driver.
JVM_NAME_CACHE = {
    "networkaddress.cache.ttl": driver_setting(int, 1.0, minimum=-1, maximum=86_400, jvm_security=True,
                                               meaning="s the JVM keeps a name's looked-up address (-1: for ever, 0: not "
                                                       "at all; unset: 30 s in OpenJDK 17 without a security manager)"),
}
CONNECTOR_J = {
    "socketTimeout": driver_setting(int, MS, meaning="ms a read on the socket may block (0: forever)", zero_is_none=True),
    "connectTimeout": driver_setting(int, MS, meaning="ms a TCP connect may take (0: forever)", zero_is_none=True),
    "tcpKeepAlive": driver_setting(bool, meaning="SO_KEEPALIVE on the socket (default true)"),
    "allowPublicKeyRetrieval": driver_setting(bool, meaning="ask the server for its RSA key (MySQL 9.7's "
                                                            "caching_sha2_password without TLS needs it)"),
}
# MariaDB Connector/J 3.5's own (its Configuration; a host list is a sequential URL, docs/facts/dns.md)
MARIADB_J = {
    "socketTimeout": driver_setting(int, MS, meaning="ms a read on the socket may block (0, its default: forever)",
                                    zero_is_none=True),
    "connectTimeout": driver_setting(int, MS, meaning="ms a TCP connect may take (default 30000; 0: forever)", zero_is_none=True),
    "tcpKeepAlive": driver_setting(bool, meaning="SO_KEEPALIVE on the socket (default true)"),
    "allowPublicKeyRetrieval": driver_setting(bool, meaning="ask the server for its RSA key (MySQL 9.7's "
                                                            "caching_sha2_password without TLS needs it)"),
    "retriesAllDown": driver_setting(int, minimum=1, maximum=1000, meaning="a host list's connects in all before it gives "
                                                                           "up (default 120)"),
    "deniedListTimeout": driver_setting(int, MS, meaning="ms a host of its list that failed is skipped by every connection "
                                                         "of the JVM (default 60000)"),
}
PGJDBC = {
    "socketTimeout": driver_setting(int, 1.0, maximum=86_400, meaning="s a read on the socket may block (0: forever)", zero_is_none=True),
    "connectTimeout": driver_setting(int, 1.0, maximum=86_400, meaning="s a TCP connect may take (0: forever)", zero_is_none=True),
    "loginTimeout": driver_setting(int, 1.0, maximum=86_400, meaning="s the whole connect and login may take (0: forever)",
                                   zero_is_none=True),
    "tcpKeepAlive": driver_setting(bool, meaning="SO_KEEPALIVE on the socket (pgJDBC's default false)"),
    "targetServerType": driver_setting(str, choices=("any", "primary", "master", "secondary", "slave", "preferSecondary",
                                                     "preferSlave", "preferPrimary"),
                                       meaning="which server of its host list it keeps: primary asks each whether it is read-only "
                                               "(default any)", picks_a_server=True),
    "hostRecheckSeconds": driver_setting(int, 1.0, maximum=86_400, picks_a_server=True,
                                         meaning="s a host's known state (primary, secondary, down) is kept before it is "
                                                 "asked again (default 10)"),
}
# libpq's (and pgx's) target_session_attrs, PostgreSQL 14's values: which server of a host list a
# connection keeps, each asked whether it is read-only or in recovery once connected
TARGET_SESSION_ATTRS = ("any", "read-write", "read-only", "primary", "standby", "prefer-standby")
# The AWS Advanced JDBC Wrapper's host-monitoring plugin (efm2; docs/facts/dns.md): a monitor of its
# own probes the connection's host while a statement runs and aborts the connection when the host
# stops answering. monitoring-X is X for the monitor's own connections (Connector/J's, in ms).
AWS_HOST_MONITOR = {
    "failureDetectionEnabled": driver_setting(bool, meaning="the host monitor watches each statement (default true)"),
    "failureDetectionTime": driver_setting(int, MS, meaning="ms after a statement starts before the monitor's first probe "
                                                            "(default 30000; the first check comes within about a second of it)"),
    "failureDetectionInterval": driver_setting(int, MS, minimum=100, meaning="ms between the monitor's probes (default 5000)"),
    "failureDetectionCount": driver_setting(int, minimum=1, maximum=100,
                                            meaning="probes in a row the host may miss before it is called dead (default 3)"),
    "monitoring-connectTimeout": driver_setting(int, MS, meaning="ms a connect of the monitor's may take (0, Connector/J's "
                                                                 "default: forever, the kernel's SYN retries decide)",
                                                zero_is_none=True),
    "monitoring-socketTimeout": driver_setting(int, MS, meaning="ms a read on the monitor's connection may block (0: forever)",
                                               zero_is_none=True),
}
HIKARI_POOL = {
    "keepaliveTime": driver_setting(int, MS, meaning="ms between keepalive checks of an idle pooled connection (0: none)",
                                    zero_is_none=True),
    "maxLifetime": driver_setting(int, MS, meaning="ms after which an idle connection is retired (0: never)",
                                  zero_is_none=True),
    "connectionTimeout": driver_setting(int, MS, minimum=250, meaning="ms a borrow may wait for a connection"),
    "validationTimeout": driver_setting(int, MS, minimum=250, meaning="ms a liveness check may take"),
    "idleTimeout": driver_setting(int, MS, meaning="ms an idle connection above minimumIdle is kept (0: for ever)",
                                  zero_is_none=True),
    "maximumPoolSize": driver_setting(int, minimum=1, maximum=16, meaning="connections in the (fixed-size) pool"),
    "aliveBypassWindowMs": driver_setting(int, MS, meaning="ms since a connection's last use within which a borrow "
                                                          "skips the liveness check (HikariCP's default 500)"),
}
