"""Which process serves a server, for the faults that freeze, thaw, stop or kill it: the lab's
database engine on a database server, nginx on a web server."""
from ..databases.server_process import ServerProcess
from ..topology import SERVICE_SERVERS
from .base import FaultsLab


class Nginx(ServerProcess):
    server_process = "nginx"


def process_on(lab: FaultsLab, server: str) -> ServerProcess:
    return lab.database if server in SERVICE_SERVERS["mysql"] else Nginx()
