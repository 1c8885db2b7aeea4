"""When a client that lists both servers by their own names is back (HOST_LIST=1: Connector/J's and
pgJDBC's jdbc:...//a,b/, libpq's and pgx's host=a,b; docs/facts/dns.md, "Clients that know every
host"). Every new connection tries the hosts in order, the dead primary first, each try lasting the
client's attempt on a silent host (back.Reconnect: its connect timeout, TCP_USER_TIMEOUT or the SYN
retries). The second server, a standby until its promotion, is taken at once (reads only until
then), unless the client keeps only a server that takes writes (target_session_attrs read-write or
primary, targetServerType primary): it refuses the standby at login and connects again from the
first host, until a walk reaches the second after its promotion. Pure."""
import math

# the settings that make a client keep only a server that takes writes, and their values that do
WRITES_ONLY = {"target_session_attrs": ("read-write", "primary"), "targetServerType": ("primary", "master")}
ANY = ("any",)
# Connector/J's failover proxy on a host list (its manual; measured in dns-failover, docs/facts/dns.md)
CONNECTOR_J_WORDS = ("; Connector/J then goes back to try its first host every 50 statements (queriesBeforeRetrySource), "
                     "each such statement waiting out the attempt, and sets a connection on its second host "
                     "read-only unless failOverReadOnly=false")


def keeps_writable(cell):
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


def through_at(attempt_s, error_s, promoted_s, writable_only):
    """When a connection gets through: walks one after another from the error, each spending
    attempt_s on the dead first host; a walk reaches the second at its end, refused there while it
    is a standby if writable_only."""
    if not writable_only:
        return error_s + attempt_s
    walks = max(1, math.ceil((promoted_s - error_s) / max(attempt_s, 1e-6) - 1e-9))
    return error_s + walks * attempt_s


def words(way, writable, setting, client):
    """How the model walks the list, in words."""
    second = (f"then the replica, refused at login while it is a standby ({setting}) and taken once promoted"
              if writable else "then the replica, taken at once (a standby until its promotion: reads only until then)")
    said = f"each new connection tries the dead primary first, for its attempt ({way.ends}), {second}"
    return said + (CONNECTOR_J_WORDS if client in ("jdbc", "aws-jdbc") else "")
