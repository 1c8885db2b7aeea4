"""Database engines the lab's db-primary and db-replica can run, one file each, each
registering itself in DATABASES (base.py) by the name DB_ENGINE uses
(docs/adding-a-database-engine.md). Importing this package imports every one of them."""
from . import mariadb, mysql, postgres  # noqa: F401
from .base import DATABASES, DEFAULT_DATABASE, DatabaseEngine, database

__all__ = ["DATABASES", "DEFAULT_DATABASE", "DatabaseEngine", "database"]
