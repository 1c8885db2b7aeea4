"""A failover run's look, every few seconds, at whether its lab is still whole: every container
there and running (but those a fault stopped), and room left on the disk the run writes to.

The containers are asked in a thread of their own: in a loaded emulated guest one look took up to
4.6 s, and the run's clock (its view of the clients, the steps) would have stood still meanwhile.
A look's answer is taken at the first tick after it came."""
import shutil
from collections.abc import Callable, Collection
from concurrent.futures import Future
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor

from ..errors import DiskFull, LabError
from ..lab.base import Lab
from ..store import shown

CHECK_EVERY_S = 3.0             # how often the run looks whether its lab is still whole
DISK_FREE_MIN_BYTES = 1 << 20   # less free under the run's directory: the disk is full
# A look still unanswered after this: the engine is stuck. This machine stood still for ~110 s once
# under three labs (the host's dockerd silent, the kernel reporting an RCU stall) and then went on.
UNANSWERED_LIMIT_S = 600.0


class LabWatch:
    def __init__(self, lab: Lab, run_path: Path, expected_down: Callable[[], Collection[str]]) -> None:
        """expected_down(): the services the faults injected so far stop."""
        self.lab, self.run_path, self.expected_down = lab, run_path, expected_down
        self.disk_checked: float | None = None
        self.asked_at: float | None = None
        self.pending: Future[dict[str, str]] | None = None
        self.asker = ThreadPoolExecutor(1, thread_name_prefix="lab-watch")

    def tick(self, now: float) -> None:
        """Raise DiskFull or LabError for what the last finished look found; start the next when due."""
        if self.pending is not None and self.pending.done():
            found, self.pending = self.pending.result(), None
            down = self.expected_down()
            problems = [problem for service, problem in found.items() if service not in down]
            if problems:
                raise LabError("the lab broke: " + "; ".join(problems))
        if self.disk_checked is None or now - self.disk_checked >= CHECK_EVERY_S:
            self.disk_checked = now
            free = shutil.disk_usage(self.run_path).free
            if free < DISK_FREE_MIN_BYTES:
                raise DiskFull(f"the disk holding {shown(self.run_path)} is full ({free} bytes free)")
        if self.pending is not None and self.asked_at is not None:
            if now - self.asked_at > UNANSWERED_LIMIT_S:
                raise LabError(f"the Docker engine has not said in {UNANSWERED_LIMIT_S:g} s whether the lab's "
                               "containers still run")
        elif self.asked_at is None or now - self.asked_at >= CHECK_EVERY_S:
            self.asked_at = now
            self.pending = self.asker.submit(self.lab.problems)

    def close(self) -> None:
        self.asker.shutdown(wait=False, cancel_futures=True)
