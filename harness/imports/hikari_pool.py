"""HikariCP's pool settings, in java.util.Properties' syntax (hikari.properties, Spring Boot's
spring.datasource.hikari.*, key=value lines after a JDBC URL in driver.url), over its Connector/J URL's."""
from collections.abc import Iterable

from ..errors import InvalidInput
from ..load.clients import CLIENTS
from .driver_import import PROPERTY, DriverImport, refuse_near_miss, setting_of


def hikari_pool(url: DriverImport | None, pool: Iterable[tuple[int | str, str]], source: str) -> DriverImport:
    """HikariCP: its pool settings ((line number, 'key=value'), ...), in java.util.Properties'
    syntax, over the Connector/J URL's (url: a DriverImport or None)."""
    settings, not_modelled = [], []
    file = source.split(":")[0]
    for number, line in pool:
        m = PROPERTY.match(line)
        if not m:
            raise InvalidInput(f"{file}:{number}: {line[:60]!r}: not key=value")
        key, value = m.group(1), m.group(2).strip()
        name = key.removeprefix("dataSource.")
        if name in CLIENTS["hikari"].settings:
            settings.append((name, setting_of("hikari", name, value, file, number)))
        else:
            refuse_near_miss(name, value, CLIENTS["hikari"].settings, CLIENTS["hikari"].library,
                                        f"{file}:{number}")
            not_modelled.append((key, value))
    if url is not None and url.client != "jdbc":
        raise InvalidInput(f"{source}: HikariCP over {CLIENTS[url.client].library}: the lab's HikariCP runs on "
                           "Connector/J (jdbc:mysql://...) alone")
    if url is not None:
        settings = [*((n, v) for n, v in url.settings if n not in dict(settings)), *settings]
        not_modelled = [*url.not_modelled, *not_modelled]
    return DriverImport(source, "hikari", tuple(settings), not_modelled=tuple(not_modelled))
