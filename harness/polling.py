"""The one way the harness waits for something: ask again every poll_s until it answers, or a
check says what died, or the time runs out (each caller's limit is a named constant of its own)."""
import time
from collections.abc import Callable

from .errors import LabError


def until(ready: Callable[[], object], timeout_s: float, poll_s: float = 0.1,
          clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> bool:
    """True as soon as ready() is, False once timeout_s has passed without it."""
    deadline = clock() + timeout_s
    while True:
        if ready():
            return True
        if clock() >= deadline:
            return False
        sleep(min(poll_s, max(0.0, deadline - clock())))


def wait_for(what: str, ready: Callable[[], object], timeout_s: float, poll_s: float = 1.0,
             gone: Callable[[], str | None] = lambda: None,
             not_yet: type[BaseException] | tuple[type[BaseException], ...] = (),
             clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> float:
    """Seconds until ready() was true. gone(): a sentence naming what died, asked before each try,
    LabError at once; not_yet: exception types from ready() that count as not ready yet (the last
    one is named in the error). LabError after timeout_s."""
    started, last = clock(), None
    while clock() - started < timeout_s:
        dead = gone()
        if dead:
            raise LabError(f"{dead} while waiting for {what}")
        try:
            if ready():
                return round(clock() - started, 1)
        except not_yet as exc:
            last = exc
        sleep(poll_s)
    raise LabError(f"gave up waiting {timeout_s:g} s for {what}" + (f" (last: {last})" if last else ""))
