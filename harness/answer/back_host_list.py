"""When a client that lists both servers by their own names is back (HOST_LIST=1: Connector/J's and
pgJDBC's jdbc:...//a,b/, libpq's and pgx's host=a,b; docs/facts/dns.md, "Clients that know every
host"). Every new connection tries the hosts in order, the dead primary first, each try lasting the
client's attempt on a silent host (back.Reconnect: its connect timeout, TCP_USER_TIMEOUT or the SYN
retries). The second server, a standby until its promotion, is taken at once (reads only until
then), unless the client keeps only a server that takes writes (target_session_attrs read-write or
primary, targetServerType primary): it refuses the standby at login and connects again from the
first host, until a walk reaches the second after its promotion. Pure."""
import math
from typing import TYPE_CHECKING

from ..scenario.model import Cell

if TYPE_CHECKING:
    from .back import Reconnect

# the settings that make a client keep only a server that takes writes, and their values that do
WRITES_ONLY = {"target_session_attrs": ("read-write", "primary"), "targetServerType": ("primary", "master")}
ANY = ("any",)
# Connector/J's failover proxy on a host list (its manual; measured in dns-failover, docs/facts/dns.md)
CONNECTOR_J_WORDS = ("; Connector/J then goes back to try its first host every 50 statements (queriesBeforeRetrySource), "
                     "each such statement waiting out the attempt, and sets a connection on its second host "
                     "read-only unless failOverReadOnly=false")


def keeps_writable(cell: Cell) -> tuple[bool, str]:
    """(True: it keeps only a server that takes writes, the setting's words) from the cell's own
    settings; ValueError for a choice of server the model does not follow (a standby's: read-only,
    standby, prefer-standby, secondary ...)."""
    given = dict(cell.client_settings)
    if cell.target_session_attrs:
        given["target_session_attrs"] = cell.target_session_attrs
    for name, writable in WRITES_ONLY.items():
        value = given.get(name)
        if value is None or value in ANY:
            continue
        if value not in writable:
            raise ValueError(f"{name}={value}: a client that wants a standby; the model follows a host list "
                             f"that takes any server or only one that takes writes ({', '.join(writable)})")
        return True, f"{name}={value}"
    return False, ""


DENY_LIST_MS = {"mariadb-jdbc": 60_000}      # MariaDB Connector/J's deniedListTimeout default (its Configuration)


def denied_s(cell: Cell) -> float:
    """How long the client skips a listed host that failed, in every connection of its runtime
    (MariaDB Connector/J's deny list: the dead primary, denied at the error, costs nothing after);
    0: it never skips one."""
    default = DENY_LIST_MS.get(cell.client)
    if default is None:
        return 0.0
    return dict(cell.client_settings).get("deniedListTimeout", default) / 1000


def through_at(attempt_s: float, error_s: float, promoted_s: float, writable_only: bool, denied: float = 0.0) -> float:
    """When a connection gets through: walks one after another from the error, each spending
    attempt_s on the dead first host (none while it is denied); a walk reaches the second at its
    end, refused there while it is a standby if writable_only."""
    if denied > 0 and not writable_only:
        return error_s
    if not writable_only:
        return error_s + attempt_s
    walks = max(1, math.ceil((promoted_s - error_s) / max(attempt_s, 1e-6) - 1e-9))
    return error_s + walks * attempt_s


def words(way: "Reconnect", writable: bool, setting: str, client: str, denied: float = 0.0) -> str:
    """How the model walks the list, in words."""
    if denied > 0 and not writable:
        return (f"at the error the driver denies the dead primary {denied:g} s (deniedListTimeout) to every "
                "connection of the JVM and connects to the replica itself: no connection tries the dead host "
                "in that time (a standby until its promotion: reads only until then)")
    second = (f"then the replica, refused at login while it is a standby ({setting}) and taken once promoted"
              if writable else "then the replica, taken at once (a standby until its promotion: reads only until then)")
    said = f"each new connection tries the dead primary first, for its attempt ({way.ends}), {second}"
    return said + (CONNECTOR_J_WORDS if client in ("jdbc", "aws-jdbc") else "")
