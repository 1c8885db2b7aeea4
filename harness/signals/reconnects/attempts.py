"""Each connect a client made, from its own log (the probe's, or a zoo program's): when it began, the
address it went to, how long it took and how it ended. The probe logs the address of each connect,
failed or not; a zoo program logs the address its resolver gave just before each connect
("connecting"). Pure: the log's text in, records out."""
import dataclasses
from collections.abc import Iterable
from typing import Any

from ...measure import probe_log
from ...measure.probe_log import Record

NEXT_HOST = "gave up for the next host"     # a connect the driver itself ended to try the next host it lists
# a connect the driver tried on its own while a statement waited (Connector/J's failover proxy going back
# to its first host every queriesBeforeRetrySource statements), given up, the statement then run on the
# connection it had
KEPT_ITS_CONNECTION = "gave up, the statement ran on the connection it had"


@dataclasses.dataclass(frozen=True)
class Attempt:
    started_t: float
    address: str | None          # None: the name did not resolve
    took_s: float
    error: str | None            # None: it connected


def attempts(text: str) -> list[Attempt]:
    """[Attempt] in the order the client made them."""
    records = list(probe_log.records(text))
    found, pending = [], None
    for index, r in enumerate(records):
        if "connecting" in r:
            if pending is not None:            # a driver that lists hosts moved on to the next one
                found.append(Attempt(pending[0], pending[1], r["connecting"] - pending[0], NEXT_HOST))
            pending = (r["connecting"], r.get("address"))
        elif r.get("ok") is False and "address" in r:           # the probe's failed connect
            found.append(Attempt(r["t0"], r["address"], r["t1"] - r["t0"], r["error"]))
            pending = None
        elif r.get("ok") is False and pending is not None:       # a zoo program's failed connect
            found.append(Attempt(pending[0], pending[1], r["t1"] - pending[0], r["error"]))
            pending = None
        elif r.get("ok") is True and pending is not None:        # the driver gave the host up, kept its connection
            found.append(Attempt(pending[0], pending[1], r["t1"] - pending[0], KEPT_ITS_CONNECTION))
            pending = None
        elif "connected" in r:
            start = pending[0] if pending else _operation_start(records[index + 1:], r.get("conn"))
            address = r.get("address") or (pending[1] if pending else None)
            found.append(Attempt(start if start is not None else r["connected"], address,
                                 r["connected"] - start if start is not None else 0.0, None))
            pending = None
    return found


def _operation_start(later: Iterable[Record], conn: Any) -> float | None:
    """The probe stamps an operation before it connects: the first operation on `conn` began the connect."""
    return next((r["t0"] for r in later if "t0" in r and r.get("conn") == conn), None)
