"""When a client is back after its database's name moved to the promoted server (docs/facts/dns.md).

Times are seconds after the old primary died silently. The client's established connection ends
the way the rest of the model says (its read timeout, TCP_USER_TIMEOUT, tcp_retries2); from then on
it connects again and again, each connect resolving the name through its caches (the runtime's,
then a caching daemon's on its host, outermost last), until one reaches the new primary. A connect
to the old, silent address ends at the driver's connect timeout or when the kernel's SYN retries
run out; one to the new address succeeds. Pure: no lab, no clock."""
import dataclasses
import math
from collections.abc import Sequence

OLD, NEW = "old", "new"


@dataclasses.dataclass(frozen=True)
class NameCache:
    """A cache of the name's answer: an answer is kept ttl_s after the lookup that fetched it.
    ttl_s None: for ever (the JVM's -1, or its default under a security manager); 0: no cache."""
    what: str                    # "the JVM (networkaddress.cache.ttl 30 s)", ...
    ttl_s: float | None


@dataclasses.dataclass(frozen=True)
class Connects:
    """How the client's connects go against a silent address, and how soon it tries again."""
    limit_s: float | None        # the driver's connect timeout (None: none, the kernel's SYN retries decide)
    syn_give_up_s: float         # when the client's kernel gives a silent connect up (syn_model.syn_give_up_s)
    retry_gap_s: float           # from a failed connect to the next one (the client's own pace)

    @property
    def silent_s(self) -> float:
        """How long one connect to a silent address lasts."""
        return self.syn_give_up_s if self.limit_s is None else min(self.limit_s, self.syn_give_up_s)


@dataclasses.dataclass(frozen=True)
class Attempt:
    t: float                     # when the connect began
    address: str                 # OLD or NEW
    ended_t: float               # when it failed (OLD) or succeeded (NEW)
    answered_by: str             # "the record" or the NameCache.what that answered


@dataclasses.dataclass(frozen=True)
class Entry:
    address: str
    expires_t: float


def _lookup(t: float, record_moved_t: float, caches: Sequence[NameCache],
            entries: list["Entry | None"]) -> tuple[str, str]:
    """(address, who answered) for a lookup at t, filling the caches it missed (innermost first)."""
    for index, cache in enumerate(caches):
        entry = entries[index]
        if entry is not None and t < entry.expires_t:
            answer = (entry.address, cache.what)
            break
    else:
        index, answer = len(caches), (NEW if t >= record_moved_t else OLD, "the record")
    for missed in range(index):
        ttl = caches[missed].ttl_s
        if ttl != 0:
            entries[missed] = Entry(answer[0], math.inf if ttl is None else t + ttl)
    return answer


def reconnects(first_connect_t: float, record_moved_t: float, caches: Sequence[NameCache], connects: Connects,
               looked_up_t: float | None = None, until_t: float = 3600.0) -> tuple[Attempt, ...]:
    """The connects from first_connect_t until one reaches the new primary, or until_t passes.
    caches: NameCache, innermost (the runtime's) first; looked_up_t: when the client last resolved
    the name before the death (its first connect; None: never, its caches are empty)."""
    entries: list[Entry | None] = [None] * len(caches)
    if looked_up_t is not None:
        _lookup(looked_up_t, record_moved_t, caches, entries)
    attempts: list[Attempt] = []
    t = first_connect_t
    while t <= until_t:
        address, answered_by = _lookup(t, record_moved_t, caches, entries)
        ended = t if address == NEW else t + connects.silent_s
        attempts.append(Attempt(t, address, ended, answered_by))
        if address == NEW:
            break
        t = ended + connects.retry_gap_s
    return tuple(attempts)


def back_t(attempts: Sequence[Attempt]) -> float | None:
    """When the client was connected to the new primary (None: not within the attempts)."""
    return attempts[-1].ended_t if attempts and attempts[-1].address == NEW else None


def host_list_connect_s(alive: Sequence[bool], connects: Connects) -> tuple[float, int | None]:
    """A client that knows every host (libpq's host=a,b, pgJDBC's and Connector/J's host lists)
    tries them in order, each try bounded by its connect timeout: (seconds to a connection, the
    index of the host it got) for hosts alive[i]; (seconds spent, None) when none answered."""
    spent = 0.0
    for index, up in enumerate(alive):
        if up:
            return spent, index
        spent += connects.silent_s
    return spent, None
