"""Oracle's MySQL 9.7 from Debian's unstable suite (images/mysql97, docs/facts/mysql.md): GTID
replication set up by the image's entrypoint; the replica runs with super_read_only."""
from typing import Any

from .base import DatabaseEngine

IMAGE = "blackhole-lab/mysql97:dev"


class MySQL(DatabaseEngine):
    name = "mysql"
    title = "MySQL"
    image = IMAGE
    server_process = "mysqld"
    sql_client = ("mysql",)
    version_command = ("mysqld", "--version")
    position_variable = "@@gtid_executed"
    full_login_options = ("--get-server-public-key",)     # caching_sha2_password without TLS (docs/facts/mysql.md)
    haproxy_mysql_check_fails = ("HAProxy 2.6's option mysql-check fails against MySQL 9.7 with or without a user "
                                 "(error 1251, haproxy#2934): check: tcp")
    stop_receiving_sql = "STOP REPLICA IO_THREAD"
    promote_sql = ("STOP REPLICA; RESET REPLICA ALL; SET GLOBAL super_read_only = OFF; "
                   "SET GLOBAL read_only = OFF;")
    refuse_writes_sql = ("SET GLOBAL super_read_only = ON",)      # read_only too; SUPER's writes as well
    writes_refused_sql = "SELECT @@global.super_read_only"

    def services(self) -> dict[str, dict[str, Any]]:
        # db-primary builds the image (compose.yaml: one service per tag), the replica runs it
        return {"db-primary": {"image": IMAGE, "build": {"context": "images/mysql97"}},
                "db-replica": {"image": IMAGE}}
