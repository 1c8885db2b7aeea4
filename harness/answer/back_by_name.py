"""When a client that connects to a name is back after the name moved (control: dns): each connect
looks the name up, and a runtime that caches it (the JVM: networkaddress.cache.ttl, 30 s unless set)
keeps the old address for that long after the lookup that fetched it (docs/facts/dns.md). Each
connect to the old, silent address lasts the client's attempt (back.Reconnect); the first connect
whose lookup gets the new address gets through. When the entry alive at the error runs out depends
on when the client last looked the name up, which the model does not know: any time from the error
to a whole TTL after it (a fresh lookup at the error, the usual case for a long-lived connection)."""
import math

from ..load.clients import CLIENTS
from ..scenario.model import Cell

JVM_DEFAULT_TTL_S = 30.0       # OpenJDK's networkaddress.cache.ttl without a security manager
TTL = "networkaddress.cache.ttl"
MOST_TRIED = 20_000            # expiries of the entry alive at the error tried, at most
NSCD_PRUNE_S = 16.5            # nscd's prune thread's period: CACHE_PRUNE_INTERVAL 15 s, measured up to 16.5 s apart


# What the answer assumes of the clients' host: no caching daemon between getaddrinfo and the name
# server (docs/facts/dns.md, "nscd"); Go's own resolver never asks one.
NO_DAEMON = ("with no caching daemon on its host: nscd would hand out the old address until its next reload, "
             "up to the record's TTL and a reload period after the move (NAME_CACHE=nscd DNS_TTL_S=...; make "
             "scenario=dns-failover-nscd)")


def asks_getaddrinfo(client: str) -> bool:
    """Whether the client's runtime looks names up through glibc's getaddrinfo (and so through nscd
    where its host runs it); Go's own resolver asks the name server itself."""
    return CLIENTS[client].runtime != "Go"


def nscd_window(moved_s: float, ttl_s: float) -> tuple[float, float, float]:
    """(expected, earliest, latest) s after the death from which nscd answers the moved name's new
    address: it keeps an answer the record's TTL and serves it past that until its prune thread
    reloads it, at least NSCD_PRUNE_S apart (glibc's CACHE_PRUNE_INTERVAL; measured 13.8-16.5 s
    apart, docs/facts/dns.md): from the move itself (an entry that ran out just before, a prune at
    the move) to a TTL and a prune period after it (an entry fetched just before the move)."""
    latest = moved_s + ttl_s + NSCD_PRUNE_S
    return (moved_s + latest) / 2, moved_s, latest


def cache_ttl_s(cell: Cell, daemon: str | None = None) -> tuple[float | None, str]:
    """(seconds the client's runtime keeps a looked-up address, in words): 0 where it keeps none
    (glibc, Go, Node: every connect asks); None for ever (the JVM's -1). The words say what is
    assumed of a caching daemon (daemon: the one on the clients' host, None: none) where the
    runtime asks getaddrinfo."""
    through = (f"through {daemon} on its host, which answers the old address until it reloads the name"
               if daemon else NO_DAEMON)
    if CLIENTS[cell.client].runtime != "JVM":
        words = f"{cell.client} keeps no cache of names: every connect asks the name server"
        return 0.0, words if not asks_getaddrinfo(cell.client) else f"{words}, {through}"
    given = dict(cell.client_settings).get(TTL)
    if given is not None and given < 0:
        return None, f"the JVM keeps a looked-up address for ever ({TTL}={given})"
    if given is None:
        ttl, words = JVM_DEFAULT_TTL_S, f"the JVM keeps a looked-up address {JVM_DEFAULT_TTL_S:g} s ({TTL} unset)"
    else:
        ttl = float(given)
        words = f"the JVM keeps a looked-up address {given} s ({TTL}={given})" if given else \
            f"the JVM keeps no looked-up address ({TTL}=0)"
    return ttl, f"{words}; it asks getaddrinfo, {through}"


def through_at(attempt_s: float, ttl_s: float, error_s: float, moved_s: float, expiry_s: float) -> float:
    """When a connect gets through: attempts one after another from the error, each lasting attempt_s
    while its lookup gives the old address; the runtime's cache entry alive at the error runs out at
    expiry_s (made a TTL before, the old address's unless that lookup came after the move). Closed
    form of measure/dns_model.reconnects (tests/unit/test_dns_explain.py holds the two together): a
    lookup that misses the cache asks the name server, whose old answer is kept ttl_s, so the next
    one asks at the first attempt a whole TTL later."""
    attempt_s = max(attempt_s, 1e-6)
    if ttl_s and expiry_s > error_s and expiry_s - ttl_s >= moved_s:
        return error_s                                  # the entry alive at the error holds the new address
    first = error_s + _attempts_until(expiry_s - error_s, attempt_s) * attempt_s if ttl_s else error_s
    if first >= moved_s:
        return first
    if not ttl_s:
        return first + _attempts_until(moved_s - first, attempt_s) * attempt_s
    cycle = _attempts_until(ttl_s, attempt_s) * attempt_s          # from one asking lookup to the next
    return first + _attempts_until(moved_s - first, cycle) * cycle


def _attempts_until(span_s: float, step_s: float) -> int:
    """How many steps of step_s it takes to cover span_s (0 for none)."""
    return max(0, math.ceil(span_s / step_s - 1e-9))


def back_window(attempt_s: float, ttl_s: float, error_s: float, moved_s: float) -> tuple[float, float, float]:
    """(expected, earliest, latest) s after the death of the connect that gets through; expected: a
    fresh lookup at the error (its entry runs out a whole TTL later). The entry's expiry is tried at
    each attempt's start (the answer changes only there), at most MOST_TRIED of them, the window
    widened by the stride when they are more."""
    if not ttl_s:
        at = through_at(attempt_s, 0.0, error_s, moved_s, error_s)
        return at, at, at
    step = max(attempt_s, 1e-6)
    count = _attempts_until(ttl_s, step)
    stride = max(1, math.ceil(count / MOST_TRIED))
    expiries = [error_s + k * step for k in range(0, count + 1, stride)] + [error_s + ttl_s]
    found = [through_at(attempt_s, ttl_s, error_s, moved_s, x) for x in expiries]
    slack = (stride - 1) * step
    return found[-1], min(found) - slack, max(found) + slack
