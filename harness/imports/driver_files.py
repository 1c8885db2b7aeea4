"""A driver's settings from its own configuration file, as each documents it:
  hikari.properties  HikariCP's properties file: its pool settings (maximumPoolSize, ...),
                     jdbcUrl (Connector/J's parameters in it) and dataSource.<property>
  mysql2.json        the options object of mysql2's createConnection/createPool, as JSON
  my.cnf             MariaDB Connector/C's option file: its [client] group (connect-timeout,
                     read-timeout, write-timeout)
Each setting is used (the client's table has it), or named as not modelled."""
import configparser
import json

from ..errors import InvalidInput
from ..load.clients import CLIENTS
from . import driver_url
from .driver_import import PROPERTY, DriverImport, refuse_near_miss, setting_of
from .hikari_pool import hikari_pool

# Connector/C's option names in a [client] group -> its mysql_options() constant
CONNECTOR_C = {"connect-timeout": "MYSQL_OPT_CONNECT_TIMEOUT", "read-timeout": "MYSQL_OPT_READ_TIMEOUT",
               "write-timeout": "MYSQL_OPT_WRITE_TIMEOUT"}
MY_CNF_GROUPS = ("client", "client-mariadb")


def hikari_properties(text: str, source: str = "hikari.properties") -> DriverImport:
    pool, url = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith(("#", "!")):
            continue
        m = PROPERTY.match(line)
        if m and m.group(1) == "jdbcUrl":
            url = driver_url.parse(m.group(2).strip(), f"{source}:{number}")
        else:
            pool.append((number, line))
    return hikari_pool(url, pool, source)


def mysql2_json(text: str, source: str = "mysql2.json") -> DriverImport:
    try:
        options = json.loads(text)
    except ValueError as exc:
        raise InvalidInput(f"{source}: not JSON: {exc}") from None
    if not isinstance(options, dict):
        raise InvalidInput(f"{source}: mysql2's options are an object ({{\"connectTimeout\": 10000, ...}})")
    settings, not_modelled = [], []
    for name, value in options.items():
        text_value = json.dumps(value) if not isinstance(value, str) else value
        if name in CLIENTS["node"].settings:
            settings.append((name, setting_of("node", name, text_value, source, name)))
        else:
            refuse_near_miss(name, text_value, CLIENTS["node"].settings, CLIENTS["node"].library, source)
            not_modelled.append((name, text_value))
    return DriverImport(source, "node", tuple(settings), not_modelled=tuple(not_modelled))


def my_cnf(text: str, source: str = "my.cnf") -> DriverImport:
    parser = configparser.ConfigParser(allow_no_value=True, strict=False, interpolation=None)
    try:
        parser.read_string(text, source)
    except configparser.Error as exc:
        raise InvalidInput(f"{source}: not an option file: {str(exc).splitlines()[0]}") from None
    except AttributeError:      # configparser: an indented line continuing an option that has no value
        raise InvalidInput(f"{source}: not an option file: an indented line continues an option that has no "
                           "value") from None
    settings, not_modelled = [], []
    for group in parser.sections():
        for key, value in parser.items(group, raw=True):
            name = key.replace("_", "-")
            if group in MY_CNF_GROUPS and name in CONNECTOR_C:
                settings.append((CONNECTOR_C[name], setting_of("libmariadb", CONNECTOR_C[name], value or "", source,
                                                            f"[{group}] {key}")))
            else:
                not_modelled.append((f"[{group}] {key}", value or ""))
    return DriverImport(source, "libmariadb", tuple(settings), not_modelled=tuple(not_modelled))
