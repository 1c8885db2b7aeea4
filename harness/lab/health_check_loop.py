"""A container's own health check, run by the lab until it passes, beside Docker's.

Docker runs a container's first check one interval after the container starts and every interval
after that (Docker 20.10 has no faster start interval). In a TCG guest that interval is 10 s
(GuestEngine.compose_env): a seed run's MySQL primary said "ready for connections" 14 s before
Docker called it healthy. The same test, in a loop the container runs itself, answers as soon as
it passes; it gives up after as many tries as the wait allows.
"""
import threading
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING
from concurrent.futures import Future, ThreadPoolExecutor

from ..errors import LabError

if TYPE_CHECKING:
    from .compose import ComposeLab

RETRY_S = 0.5
HEALTH_POLL_S = 0.25


def until_passes(test: Sequence[str] | None, timeout_s: float) -> list[str] | None:
    """The command that runs a Docker health check's test (its CMD or CMD-SHELL form, as the
    container's config holds it) until it passes, or None for a container without one."""
    if not test or test[0] not in ("CMD", "CMD-SHELL"):
        return None
    tries = max(1, int(timeout_s / RETRY_S))
    run = '"$@"' if test[0] == "CMD" else 'sh -c "$1"'
    loop = (f'i=0; until {run} >/dev/null 2>&1; do i=$((i + 1)); '
            f'[ "$i" -ge {tries} ] && exit 1; sleep {RETRY_S}; done')
    return ["sh", "-c", loop, "health-check", *test[1:]]


def wait_healthy(lab: "ComposeLab", services: Iterable[str] | None, timeout_s: float, own_checks: bool = True,
                 stopping: threading.Event | None = None) -> None:
    """Until each of services is healthy as Docker reports it (lab.health()) or, with own_checks,
    its own check looped in its container (lab.check_until_passes) passed; a LabError when one
    fails its check, stops, the time is up, or stopping (an Event) is set."""
    if services is None:
        raise LabError("no services to wait for: the lab has not been brought up")
    deadline = time.monotonic() + timeout_s
    checks = ThreadPoolExecutor(4, thread_name_prefix="health-check")
    checking: dict[str, Future] = {}
    try:
        while True:
            found = lab.health()
            passed = {s for s, check in checking.items() if check.done() and check.result()}
            health = {service: "healthy" if service in passed else found.get(service, "gone") for service in services}
            failed = {s: h for s, h in health.items() if h not in ("healthy", "starting", "running")}
            if failed:
                raise LabError("not healthy: " + ", ".join(f"{s} ({h})" for s, h in sorted(failed.items())))
            waiting = sorted(s for s, h in health.items() if h == "starting")
            if not waiting:
                return
            if time.monotonic() > deadline:
                raise LabError(f"not healthy within {timeout_s:g} s: {', '.join(waiting)}")
            if stopping is not None and stopping.is_set():
                raise LabError(f"stopped waiting for {', '.join(waiting)}: the run is ending")
            for service in waiting if own_checks else ():
                if service not in checking:
                    checking[service] = checks.submit(lab.check_until_passes, service, deadline - time.monotonic())
            time.sleep(HEALTH_POLL_S)
    finally:
        checks.shutdown(wait=False, cancel_futures=True)     # each loop ends by itself, bounded
