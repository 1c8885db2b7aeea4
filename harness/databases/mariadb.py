"""MariaDB 10.11 from Debian (images/mysql): GTID replication set up by the image's entrypoint."""
from .base import DatabaseEngine


class MariaDB(DatabaseEngine):
    name = "mariadb"
    title = "MariaDB"
    image = "blackhole-lab/mysql:dev"
    server_process = "mariadbd"
    sql_client = ("mariadb",)
    version_command = ("mariadbd", "--version")
    position_variable = "@@gtid_current_pos"
    stop_receiving_sql = "STOP SLAVE IO_THREAD"
    promote_sql = "STOP SLAVE; RESET SLAVE ALL; SET GLOBAL read_only = OFF;"
    cannot_refuse_writes = ("MariaDB's read_only lets a login holding READ_ONLY ADMIN write, and the lab's clients' "
                            "login holds every privilege (GRANT ALL ON *.*): none of their writes would be refused; "
                            "database: mysql (super_read_only) or postgres")
