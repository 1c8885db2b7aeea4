"""When a client that connects to a name is back after the name moved (control: dns): each connect
looks the name up, and a runtime that caches it (the JVM: networkaddress.cache.ttl, 30 s unless set)
keeps the old address for that long after the lookup that fetched it (docs/facts/dns.md). Each
connect to the old, silent address lasts the client's attempt (back.Reconnect); the first connect
whose lookup gets the new address gets through. When the entry alive at the error runs out depends
on when the client last looked the name up, which the model does not know: any time from the error
to a whole TTL after it (a fresh lookup at the error, the usual case for a long-lived connection)."""
from ..load.clients import CLIENTS
from ..measure.dns_model import Connects, NameCache, back_t, reconnects

JVM_DEFAULT_TTL_S = 30.0       # OpenJDK's networkaddress.cache.ttl without a security manager
TTL = "networkaddress.cache.ttl"
STEP_S = 0.1                   # how finely the unknown expiry of the entry alive at the error is tried


def cache_ttl_s(cell):
    """(seconds the client's runtime keeps a looked-up address, in words): 0 where it keeps none
    (glibc, Go, Node: every connect asks); None for ever (the JVM's -1)."""
    if CLIENTS[cell.client].runtime != "JVM":
        return 0.0, f"{cell.client} keeps no cache of names: every connect asks the name server"
    given = dict(cell.client_settings).get(TTL)
    if given is None:
        return JVM_DEFAULT_TTL_S, f"the JVM keeps a looked-up address {JVM_DEFAULT_TTL_S:g} s ({TTL} unset)"
    if given < 0:
        return None, f"the JVM keeps a looked-up address for ever ({TTL}={given})"
    return float(given), f"the JVM keeps a looked-up address {given} s ({TTL}={given})" if given else \
        f"the JVM keeps no looked-up address ({TTL}=0)"


def through_at(attempt_s, ttl_s, error_s, moved_s, expiry_s):
    """When a connect gets through: attempts one after another from the error, each lasting attempt_s
    while its lookup gives the old address (measure/dns_model.py); the runtime's cache entry alive at
    the error runs out at expiry_s (made a TTL before by a lookup, the old address's unless that
    lookup came after the move)."""
    caches = (NameCache("the runtime", ttl_s),) if ttl_s else ()
    looked_up_t = expiry_s - ttl_s if ttl_s else None
    attempts = reconnects(error_s, moved_s, caches, Connects(attempt_s, attempt_s, 0.0), looked_up_t=looked_up_t)
    return back_t(attempts)


def back_window(attempt_s, ttl_s, error_s, moved_s):
    """(expected, earliest, latest) s after the death of the connect that gets through; expected: a
    fresh lookup at the error (its entry runs out a whole TTL later)."""
    if not ttl_s:
        at = through_at(attempt_s, 0.0, error_s, moved_s, error_s)
        return at, at, at
    expiries = [error_s + i * STEP_S for i in range(int(ttl_s / STEP_S) + 1)]
    found = [through_at(attempt_s, ttl_s, error_s, moved_s, x) for x in expiries]
    return found[-1], min(found), max(found)
