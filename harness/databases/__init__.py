"""Database engines the lab's mysql-primary and mysql-replica can run, one file each, and the
registry DB_ENGINE names them by (docs/adding-a-database-engine.md)."""
from .base import DatabaseEngine
from .mariadb import MariaDB

DATABASES = {engine.name: engine for engine in (MariaDB,)}
DEFAULT_DATABASE = "mariadb"


def database(name=None):
    """The engine named `name` (None: the default)."""
    return DATABASES[name or DEFAULT_DATABASE]()


__all__ = ["DATABASES", "DEFAULT_DATABASE", "DatabaseEngine", "database"]
