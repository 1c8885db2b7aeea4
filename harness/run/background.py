"""The work a run does beside its main line (the servers' health checks, env.json, the director's
table before the fault), stopped by the run's cleanup: a wait in it ends at its next poll once
`stopping` is set, and the cleanup waits for every task to end, naming any that outlives its limit.
(A pool left to itself kept polling the servers' health while the cleanup took the lab down.)"""
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from ..errors import LabError


class Background:
    def __init__(self, name: str) -> None:
        self.name = name
        self.stopping = threading.Event()
        self._tasks: list[tuple[str, threading.Thread]] = []

    def submit(self, what: str, work: Callable[..., Any], *args: Any) -> Future:
        """work(*args) in a thread of its own, at once; `what` names it if it outlives the stop."""
        future: Future = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(work(*args))
            except BaseException as exc:
                future.set_exception(exc)
        thread = threading.Thread(target=run, name=f"{self.name}-{len(self._tasks)}", daemon=True)
        self._tasks.append((what, thread))
        thread.start()
        return future

    def stop(self, limit_s: float) -> None:
        """Tell every task to stop and wait up to limit_s, all told, for them to end; a LabError
        naming each that did not."""
        self.stopping.set()
        deadline = time.monotonic() + limit_s
        for _, thread in self._tasks:
            thread.join(max(0.0, deadline - time.monotonic()))
        left = self.running()
        if left:
            raise LabError(f"still running {limit_s:g} s after the run told it to stop: {', '.join(left)}")

    def running(self) -> list[str]:
        """What is still running, by name."""
        return [what for what, thread in self._tasks if thread.is_alive()]
