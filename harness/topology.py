"""The lab's vocabulary, as compose.yaml and the director define it: nodes, servers, what runs
on them, the director's ports, datapaths and policies. One source for each of these names."""
from collections.abc import Sequence

DIRECTOR = "director"
SERVERS = ("db-primary", "db-replica", "web-a", "web-b")
NODES = (DIRECTOR,) + SERVERS
# Services behind the VIP, by what they are: 'mysql' is VIP:3306, 'web' is VIP:80.
SERVICE_PORTS = {"mysql": 3306, "web": 80}
FRONT, BACK = "front", "back"           # the two internal networks
VIP_HOST = 10                           # the VIP: front network's .10 (compose.yaml)
# The lab's DNS domain (control: dns): the database's name, db.lab, and each server's own, db-primary.lab.
LAB_DOMAIN = "lab"
PROTOCOLS = ("mysql", "http")           # what a probe speaks
# The database servers are named by their role, whatever the engine; until 2026-12-04 they were
# mysql-primary and mysql-replica, and a scenario file that still says so is told the new name.
RENAMED_SERVERS = {"mysql-primary": "db-primary", "mysql-replica": "db-replica"}
PRIMARY = "db-primary"       # the database server the lab starts as the primary
SERVICE_SERVERS = {"mysql": ("db-primary", "db-replica"), "web": ("web-a", "web-b")}
DATABASE_REPLICAS = tuple(s for s in SERVICE_SERVERS["mysql"] if s != PRIMARY)
PROTOCOL_SERVERS = {"mysql": SERVICE_SERVERS["mysql"], "http": SERVICE_SERVERS["web"]}
PROTOCOL_PORTS = {"mysql": SERVICE_PORTS["mysql"], "http": SERVICE_PORTS["web"]}

def unknown_server(value: object, servers: Sequence[str] = SERVERS, kind: str = "server") -> str:
    """Why `value` is not one of `servers`: their list, and the new name of a server renamed."""
    now = RENAMED_SERVERS.get(value) if isinstance(value, str) else None
    hint = f"; {value} is now called {now}" if now else ""
    return f"unknown {kind} {value!r} ({kind}s: {', '.join(servers)}{hint})"


def is_director(service: str) -> bool:
    """The director, or another director a control plane runs beside it (director-backup, ...)."""
    return service == DIRECTOR or service.startswith(DIRECTOR + "-")


def host_name(server: str) -> str:
    """A server's own name in the lab's domain (answered under control: dns)."""
    return f"{server}.{LAB_DOMAIN}"


DATAPATHS = ("auto", "ipvs", "nftables")
DEFAULT_DATAPATH = "auto"
NODEST_POLICIES = ("drop", "reset")     # what a removed server's old flows get (expire_nodest_conn 0/1)
DEFAULT_NODEST = "drop"
# Where a client cell's network namespace is: a container of its own, or a namespace in one
# client container shared by all the cells (harness/lab/netns_cells.py).
CELL_NAMESPACES = ("container", "netns")
DEFAULT_CELL_NAMESPACES = "container"
