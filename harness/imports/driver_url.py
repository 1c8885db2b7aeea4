"""A driver's connection string -> the zoo client it names, with its settings. Each format as its
documentation writes it:
  Connector/J   jdbc:mysql://host:3306/db?socketTimeout=3000&connectTimeout=1000  (also
                jdbc:mysql:loadbalance://, :replication://, mysqlx:// is refused)
  MariaDB Connector/J  jdbc:mariadb://host:3306/db?socketTimeout=3000 (jdbc:mariadb:sequential://a,b/)
  Go            user:pass@tcp(host:3306)/db?readTimeout=2s&timeout=1s   (go-sql-driver/mysql's DSN)
  SQLAlchemy    mysql+pymysql://user:pass@host:3306/db?read_timeout=3   (its query goes to PyMySQL's
                connect(): read_timeout is the lab probe's read timeout)
A parameter is used (a setting the client's table has), or named as not modelled; never dropped. A
parameter that is a near miss of a setting the lab reads (socketTimout) is refused with that setting:
read as "not modelled", the answer would silently be the driver's default's."""
import dataclasses
import re
from typing import Any
from urllib.parse import parse_qsl, unquote

from ..errors import InvalidInput
from ..load.clients import CLIENTS
from ..settings.drivers import setting_value
from ..settings.kinds import SettingsError
from .driver_import import DriverImport, refuse_near_miss
from .hikari_pool import hikari_pool

GO_DSN = re.compile(r"^(?:(?P<user>[^@]*)@)?(?P<net>\w+)?(?:\((?P<addr>[^)]*)\))?/(?P<db>[^?]*)(?:\?(?P<query>.*))?$")
PYMYSQL = {"read_timeout": "read_timeout_s"}     # PyMySQL's connect() argument -> the lab probe's cell knob
# What a JDBC URL's host list does, by its mode (jdbc:mysql:<mode>://): Connector/J's and MariaDB Connector/J's manuals
IN_ORDER = "tried in order by each new connection (a silent first host costs each one its connect timeout)"
HOST_LISTS = {None: IN_ORDER, "failover": IN_ORDER, "sequential": IN_ORDER,
              "loadbalance": "each connection to one of them by the balancing strategy (random by default)",
              "replication": "the first the source, the others replicas for read-only connections"}
# MariaDB Connector/J 3.x's own (its HaMode): no mode connects to the first host only
MARIADB_HOST_LISTS = {None: "the first host alone: MariaDB Connector/J 3 without a mode (jdbc:mariadb:sequential://) "
                            "never tries the others",
                      "sequential": "tried in order, a host that failed skipped by every connection of the JVM for "
                                    "deniedListTimeout (60 s)",
                      "loadbalance": HOST_LISTS["loadbalance"], "replication": HOST_LISTS["replication"],
                      "failover": "no mode of MariaDB Connector/J 3 (sequential, loadbalance, replication)"}


def parse(text: str, source: str = "driver.url") -> DriverImport:
    """One connection string; lines starting with # are comments. A file of several (one per
    application behind the VIP): parse_all."""
    drivers = parse_all(text, source)
    if len(drivers) > 1:
        raise InvalidInput(f"{source}: lines {drivers[0].source.rpartition(':')[2]} and "
                           f"{drivers[1].source.rpartition(':')[2]}: {len(drivers)} connection strings where one was "
                           "expected")
    return drivers[0]


def parse_all(text: str, source: str = "driver.url") -> tuple[DriverImport, ...]:
    """Every application's driver in a file of connection strings, in the file's order: each
    connection string (a JDBC URL, a Go DSN, a SQLAlchemy URL) begins one; `key=value` lines after a
    JDBC URL are its HikariCP pool's settings (as in hikari.properties). Lines starting with # or !
    are comments. With several, each is named after its line (file:line)."""
    groups: list[tuple[int, str, list[tuple[int, str]]]] = []   # (line number, URL, its pool's lines)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = " ".join(raw.split())
        if not line or line.startswith(("#", "!")):
            continue
        if is_connection_string(line):
            groups.append((number, line, []))
        elif groups and groups[-1][1].startswith("jdbc:"):
            groups[-1][2].append((number, line))
        else:
            raise InvalidInput(f"{source}:{number}: {line[:60]!r}: not a JDBC URL (jdbc:mysql://...), a Go DSN "
                               "(user@tcp(host:port)/db?...) or a SQLAlchemy URL (mysql+pymysql://...)"
                               + (" (a pool's key=value settings follow the JDBC URL they belong to)" if "=" in line
                                  and groups else ""))
    if not groups:
        raise InvalidInput(f"{source}: empty: give a JDBC URL, a Go DSN or a SQLAlchemy URL")
    named = len(groups) > 1
    return tuple(_one(url, pool, f"{source}:{number}" if named else source, f"{source}:{number}")
                 for number, url, pool in groups)


def is_connection_string(line: str) -> bool:
    return line.startswith("jdbc:") or bool(re.match(r"^mysql(\+\w+)?://", line)) or (
        bool(GO_DSN.match(line)) and "://" not in line)


def _one(url: str, pool: list[tuple[int, str]], source: str, where: str) -> DriverImport:
    if pool:
        return hikari_pool(_jdbc(url, where), pool, source)
    if url.startswith("jdbc:"):
        found = _jdbc(url, where)
    elif re.match(r"^mysql(\+\w+)?://", url):
        found = _sqlalchemy(url, where)
    else:
        found = _go(url, where)
    return dataclasses.replace(found, source=source)


def _jdbc(url: str, source: str) -> DriverImport:
    m = re.match(r"^jdbc:(mysql|mariadb)(?::(loadbalance|replication|failover|sequential))?://([^/?]*)(?:/[^?]*)?"
                 r"(?:\?(.*))?$", url)
    if not m:
        raise InvalidInput(f"{source}: {url[:60]!r}: not a Connector/J URL (jdbc:mysql://host:port/db?k=v&...)")
    mariadb = m.group(1) == "mariadb"          # MariaDB Connector/J's scheme; Connector/J takes jdbc:mysql: alone
    found = _with_params("mariadb-jdbc" if mariadb else "jdbc", m.group(4) or "", source)
    hosts = [host for host in m.group(3).split(",") if host]
    if len(hosts) < 2:
        return found
    # a host list is the URL's, not a parameter: named, never dropped (docs/facts/dns.md, "Clients that know every host")
    how = (MARIADB_HOST_LISTS if mariadb else HOST_LISTS)[m.group(2)]
    listed = (f"{', '.join(hosts)}: a host list, {how}; an incident's folder is answered for one address; "
              "make explain HOST_LIST=1 PROMOTED_AFTER_S=... answers a list whose first host died, make "
              "scenario=dns-failover measures one (a cell's hosts:)")
    return dataclasses.replace(found, not_modelled=(("hosts", listed), *found.not_modelled))


def _go(url: str, source: str) -> DriverImport:
    m = GO_DSN.match(url)
    assert m is not None              # is_connection_string matched it
    if m.group("net") not in (None, "tcp", "tcp4", "tcp6"):
        raise InvalidInput(f"{source}: protocol {m.group('net')!r}: the lab's clients connect over TCP")
    return _with_params("go", m.group("query") or "", source)


def _sqlalchemy(url: str, source: str) -> DriverImport:
    m = re.match(r"^mysql(?:\+(\w+))?://[^?]*(?:\?(.*))?$", url)
    assert m is not None              # is_connection_string matched its start, and the rest is any
    dialect = m.group(1) or "mysqldb"
    if dialect != "pymysql":
        raise InvalidInput(f"{source}: mysql+{dialect}: the zoo's Python client is PyMySQL (mysql+pymysql://)")
    cell: list[tuple[str, float]] = []
    not_modelled: list[tuple[str, str]] = []
    for name, value in _query(m.group(2) or "", source):
        if name in PYMYSQL:
            cell.append((PYMYSQL[name], _seconds(name, value, source)))
        else:
            refuse_near_miss(name, value, PYMYSQL, "PyMySQL", source)
            not_modelled.append((name, value))
    return DriverImport(source, "pymysql", cell=tuple(cell), not_modelled=tuple(not_modelled))


def _with_params(client: str, query: str, source: str) -> DriverImport:
    """The URL's parameters: the driver's own settings, the rest named as not modelled (a JVM's
    security property such as networkaddress.cache.ttl is no property of the URL's: the driver ignores it;
    one that chooses among a host list's servers, such as targetServerType, changes nothing for the
    one host a replay connects to)."""
    settings: list[tuple[str, Any]] = []
    not_modelled: list[tuple[str, str]] = []
    driver_own = {name: s for name, s in CLIENTS[client].settings.items() if not s.jvm_security
                  and not s.picks_a_server}
    for name, value in _query(query, source):
        if name in driver_own:
            try:
                settings.append((name, setting_value(client, name, value)))
            except SettingsError as exc:
                raise InvalidInput(f"{source}: {exc}") from None
        else:
            refuse_near_miss(name, value, driver_own, CLIENTS[client].library, source)
            not_modelled.append((name, value))
    return DriverImport(source, client, tuple(settings), not_modelled=tuple(not_modelled))


def _query(query: str, source: str) -> list[tuple[str, str]]:
    pairs = parse_qsl(query, keep_blank_values=True, separator="&")
    if query and not pairs:
        raise InvalidInput(f"{source}: {query[:60]!r}: parameters are name=value joined by &")
    said: dict[str, str] = {}
    for name, value in pairs:
        if name in said:
            raise InvalidInput(f"{source}: {name} given twice ({name}={said[name]}, then {name}={value}): which one "
                               "the driver takes is its own affair; keep one")
        said[name] = value
    return [(unquote(name), unquote(value)) for name, value in pairs]


def _seconds(name: str, value: str, source: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 3600:
        raise InvalidInput(f"{source}: {name}={value!r}: seconds, 0-3600")
    return seconds
