"""How the harness ends on a signal: SIGINT, SIGTERM and SIGHUP each raise Interrupted where the
harness is (so faults are undone and the lab goes down on the way out), whatever the process
inherited: a shell starts background jobs with SIGINT ignored, and Python then installs nothing.
During cleanup a further signal does not cut it short; it says what is still being done. A child
forked without exec (a chart drawer, a pool's worker) gets the defaults back: its parent is the one
that cleans up, and a pool ends its workers with SIGTERM."""
import os
import signal
import sys
from types import FrameType
from typing import IO, Literal, Self

HANDLED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(KeyboardInterrupt):
    """A handled signal arrived; the process exits 128 + its number once cleanup is done."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


def _defaults() -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for sig in HANDLED[1:]:
        signal.signal(sig, signal.SIG_DFL)


_forks_reset: list[bool] = []


def install() -> None:
    for sig in HANDLED:
        signal.signal(sig, _raise)
    if not _forks_reset:
        os.register_at_fork(after_in_child=_defaults)
        _forks_reset.append(True)


class Cleanup:
    """`with Cleanup() as cleanup: cleanup.step("taking the lab down"); ...`: signals that arrive
    meanwhile are remembered and answered with what is being done, not raised."""

    def __init__(self, out: IO[str] = sys.stderr) -> None:
        self.out, self.doing = out, "starting"
        self.received: list[int] = []

    def step(self, doing: str) -> None:
        self.doing = doing

    def _note(self, signum: int, frame: FrameType | None) -> None:
        self.received.append(signum)
        self.out.write(f"\nblackhole: {signal.Signals(signum).name} received; still cleaning up ({self.doing}), "
                       "every step is bounded in time\n")
        self.out.flush()

    def __enter__(self) -> Self:
        self.previous = {sig: signal.signal(sig, self._note) for sig in HANDLED}
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)
        return False
