"""A Spring Boot application's datasource, from its own configuration file, as Spring Boot documents
it (application.properties, or application.yml: the same keys nested):
  spring.datasource.url                              the JDBC URL (Connector/J's parameters in it)
  spring.datasource.hikari.<setting>                 HikariCP's own settings, Spring Boot's pool by
                                                     default (relaxed names: connection-timeout is
                                                     connectionTimeout)
  spring.datasource.hikari.data-source-properties.<property>   a Connector/J property (dataSource.<property>)
Every other key is named as not modelled, never dropped; a pool other than HikariCP
(spring.datasource.type) is refused, as is a file without spring.datasource.url."""
import dataclasses
import re
from collections.abc import Sequence
from typing import Any

import yaml

from ..errors import InvalidInput
from . import driver_url
from .driver_import import PROPERTY, DriverImport
from .hikari_pool import hikari_pool

URL_KEYS = ("spring.datasource.url", "spring.datasource.hikari.jdbc-url", "spring.datasource.hikari.jdbcUrl")
HIKARI = "spring.datasource.hikari."
SOURCE_PROPERTIES = ("data-source-properties.", "dataSourceProperties.")
HIKARI_TYPE = "com.zaxxer.hikari.HikariDataSource"
MARKS = re.compile(r"^\s*spring\.datasource\.(url|hikari\.)", re.MULTILINE)


def looks_like_properties(text: str) -> bool:
    return bool(MARKS.search(text))


def looks_like_yaml(text: str) -> bool:
    flat = _flat_yaml(text)
    return flat is not None and any(key in URL_KEYS or key.startswith(HIKARI) for key in flat)


def spring_properties(text: str, source: str = "application.properties") -> DriverImport:
    keys: list[tuple[int | str, str, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith(("#", "!")):
            continue
        m = PROPERTY.match(line)
        if not m:
            raise InvalidInput(f"{source}:{number}: {line[:60]!r}: not key=value")
        keys.append((number, m.group(1), m.group(2).strip()))
    return _datasource(keys, source)


def spring_yaml(text: str, source: str = "application.yml") -> DriverImport:
    flat = _flat_yaml(text)
    if flat is None:
        raise InvalidInput(f"{source}: not a YAML mapping (spring: datasource: url: ...)")
    return _datasource([(key, key, value) for key, value in flat.items()], source)


def _datasource(keys: Sequence[tuple[int | str, str, str]], source: str) -> DriverImport:
    """keys: ((where, key, value), ...) -> the hikari client's DriverImport."""
    url: DriverImport | None = None
    pool: list[tuple[int | str, str]] = []
    others: list[tuple[str, str]] = []
    for where, key, value in keys:
        if key in URL_KEYS:
            url = driver_url.parse(value, f"{source}:{where}")
            if url.client != "jdbc":
                raise InvalidInput(f"{source}:{where}: {key}: {value[:60]!r}: a Spring datasource takes a JDBC URL")
        elif key == "spring.datasource.type" and value != HIKARI_TYPE:
            raise InvalidInput(f"{source}:{where}: {key}={value}: the lab's zoo pools with HikariCP, Spring Boot's "
                               "default; this pool is not modelled")
        elif key.startswith(HIKARI):
            pool.append((where, f"{_hikari_name(key.removeprefix(HIKARI))}={value}"))
        elif key != "spring.datasource.type":
            others.append((key, value))
    if url is None:
        raise InvalidInput(f"{source}: no spring.datasource.url: the JDBC URL the application connects with")
    found = hikari_pool(url, pool, source)
    return dataclasses.replace(found, not_modelled=(*found.not_modelled, *others))


def _hikari_name(key: str) -> str:
    """Spring Boot's relaxed name -> HikariCP's: connection-timeout -> connectionTimeout,
    data-source-properties.socketTimeout -> dataSource.socketTimeout."""
    for prefix in SOURCE_PROPERTIES:
        if key.startswith(prefix):
            return "dataSource." + key.removeprefix(prefix)
    head, *rest = key.split("-")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _flat_yaml(text: str) -> dict[str, str] | None:
    """{dotted key: its value as text} of a YAML mapping, or None if the text is not one."""
    try:
        raw = yaml.load(text, Loader=yaml.BaseLoader)
    except yaml.YAMLError:
        return None
    if not isinstance(raw, dict):
        return None
    flat: dict[str, str] = {}

    def walk(node: Any, prefix: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{prefix}{key}.")
        else:
            flat[prefix.rstrip(".")] = node if isinstance(node, str) else yaml.safe_dump(node).strip()
    walk(raw, "")
    return flat
