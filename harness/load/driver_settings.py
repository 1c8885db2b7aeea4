"""What a driver's settings are: each a named value with its unit and range, and what 0 means by
its own documentation; the tables shared by several clients (Connector/J's, pgJDBC's, HikariCP's)."""
import dataclasses
import re
from typing import Any


@dataclasses.dataclass(frozen=True)
class Setting:
    kind: type                  # int (a count of `unit`s), bool or str (a Go duration, or one of choices)
    unit_s: float = 0.0         # seconds per unit, for int settings that are durations
    minimum: int = 0
    maximum: int = 3_600_000
    meaning: str = ""
    zero_is_none: bool = False  # a limit whose 0 means none at all (its documentation's "0: forever"), not 0 s
    jvm_security: bool = False  # a security property of the JVM's (its java.security), not the driver's
    choices: tuple[str, ...] = ()   # a str setting that names one of these, not a duration
    picks_a_server: bool = False    # chooses among the hosts it lists (a host list's; explain has one host)

    def __post_init__(self) -> None:
        if self.choices and self.kind is not str:
            raise ValueError("only a str setting names one of choices")

    def seconds(self, value: Any) -> float | None:
        """A duration setting's value in seconds; None where it sets no limit (0 that means forever)."""
        if self.choices:
            raise ValueError(f"{value!r} names a choice, not a duration")
        seconds = go_duration_s(value) if self.kind is str else value * self.unit_s
        return None if seconds == 0 and self.zero_is_none else seconds


GO_UNITS_S = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "\u03bcs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
GO_PART = re.compile(r"(\d+\.?\d*|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)")


def go_duration_s(text: Any) -> float | None:
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
# The JVM's cache of looked-up names (docs/facts/dns.md): a security property, given to the JVM over its
# java.security (images/client/zoo/bin/zoo-java), never to the driver.
JVM_NAME_CACHE = {
    "networkaddress.cache.ttl": Setting(int, 1.0, minimum=-1, maximum=86_400, jvm_security=True,
                                        meaning="s the JVM keeps a name's looked-up address (-1: for ever, 0: not "
                                                "at all; unset: 30 s in OpenJDK 17 without a security manager)"),
}
CONNECTOR_J = {
    "socketTimeout": Setting(int, MS, meaning="ms a read on the socket may block (0: forever)", zero_is_none=True),
    "connectTimeout": Setting(int, MS, meaning="ms a TCP connect may take (0: forever)", zero_is_none=True),
    "tcpKeepAlive": Setting(bool, meaning="SO_KEEPALIVE on the socket (default true)"),
    "allowPublicKeyRetrieval": Setting(bool, meaning="ask the server for its RSA key (MySQL 9.7's "
                                                     "caching_sha2_password without TLS needs it)"),
}
# MariaDB Connector/J 3.5's own (its Configuration; a host list is a sequential URL, docs/facts/dns.md)
MARIADB_J = {
    "socketTimeout": Setting(int, MS, meaning="ms a read on the socket may block (0, its default: forever)",
                             zero_is_none=True),
    "connectTimeout": Setting(int, MS, meaning="ms a TCP connect may take (default 30000; 0: forever)", zero_is_none=True),
    "tcpKeepAlive": Setting(bool, meaning="SO_KEEPALIVE on the socket (default true)"),
    "allowPublicKeyRetrieval": Setting(bool, meaning="ask the server for its RSA key (MySQL 9.7's "
                                                     "caching_sha2_password without TLS needs it)"),
    "retriesAllDown": Setting(int, minimum=1, maximum=1000, meaning="a host list's connects in all before it gives "
                                                                    "up (default 120)"),
    "deniedListTimeout": Setting(int, MS, meaning="ms a host of its list that failed is skipped by every connection "
                                                  "of the JVM (default 60000)"),
}
PGJDBC = {
    "socketTimeout": Setting(int, 1.0, maximum=86_400, meaning="s a read on the socket may block (0: forever)", zero_is_none=True),
    "connectTimeout": Setting(int, 1.0, maximum=86_400, meaning="s a TCP connect may take (0: forever)", zero_is_none=True),
    "loginTimeout": Setting(int, 1.0, maximum=86_400, meaning="s the whole connect and login may take (0: forever)",
                            zero_is_none=True),
    "tcpKeepAlive": Setting(bool, meaning="SO_KEEPALIVE on the socket (pgJDBC's default false)"),
    "targetServerType": Setting(str, choices=("any", "primary", "master", "secondary", "slave", "preferSecondary",
                                              "preferSlave", "preferPrimary"),
                                meaning="which server of its host list it keeps: primary asks each whether it is read-only "
                                        "(default any)", picks_a_server=True),
    "hostRecheckSeconds": Setting(int, 1.0, maximum=86_400, picks_a_server=True,
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
    "failureDetectionEnabled": Setting(bool, meaning="the host monitor watches each statement (default true)"),
    "failureDetectionTime": Setting(int, MS, meaning="ms after a statement starts before the monitor's first probe "
                                                     "(default 30000; the first check comes within about a second of it)"),
    "failureDetectionInterval": Setting(int, MS, minimum=100, meaning="ms between the monitor's probes (default 5000)"),
    "failureDetectionCount": Setting(int, minimum=1, maximum=100,
                                     meaning="probes in a row the host may miss before it is called dead (default 3)"),
    "monitoring-connectTimeout": Setting(int, MS, meaning="ms a connect of the monitor's may take (0, Connector/J's "
                                                          "default: forever, the kernel's SYN retries decide)",
                                         zero_is_none=True),
    "monitoring-socketTimeout": Setting(int, MS, meaning="ms a read on the monitor's connection may block (0: forever)",
                                        zero_is_none=True),
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
