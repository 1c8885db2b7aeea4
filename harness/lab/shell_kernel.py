"""What a kernel reached through a shell says about itself (a guest over ssh, a cluster's node
through its agent pod): the features a run needs, the sysctls a new network namespace starts
with, and its clock against ours. The class using it gives `ssh` (run, popen)."""
import subprocess
import time
from collections.abc import Callable
from typing import Protocol

from ..errors import LabError
from .engine import SYSCTL_DEFAULTS_SCRIPT, parse_sysctl_defaults
from .stuck import describe_stuck, parse_stuck, stuck_script

CLOCK_SAMPLES = 20
CLOCK_TOLERANCE_S = 0.005     # its clock against ours, once set


class CommandChannel(Protocol):
    """A shell on that kernel's machine (guest/ssh.py's Ssh, a cluster agent's session)."""
    def run(self, command: str, timeout: float = ..., check: bool = ...,
            stdin: str | None = ...) -> subprocess.CompletedProcess: ...
    def popen(self, command: str) -> subprocess.Popen: ...


class ShellKernel:
    _features: dict[str, bool] | None = None
    _sysctl_defaults: dict[str, str] | None = None
    engine_log: str | None = None  # where its dockerd writes, if it keeps a log of its own
    # the class using it gives these (annotations only: nothing here shadows them)
    ssh: CommandChannel | None
    has_qdisc: Callable[[str], bool]
    clock: dict[str, float]
    clock_offset_s: float

    def _shell(self) -> CommandChannel:
        if self.ssh is None:
            raise LabError("its shell is not up: the machine was not started, or has stopped")
        return self.ssh

    def _succeeds(self, command: str) -> bool:
        """Whether command exits 0 there, asked once."""
        if self._features is None:
            self._features = {}
        if command not in self._features:
            self._features[command] = self._shell().run(command, check=False).returncode == 0
        return self._features[command]

    def _test(self, condition: str) -> bool:
        return self._succeeds(f"test {condition}")

    def has_ipvs(self) -> bool:
        return self._test("-e /proc/net/ip_vs")

    def has_netem(self) -> bool:
        return self.has_qdisc("netem")

    def has_sysctl(self, path: str) -> bool:
        return self._test(f"-e {path}")

    def sysctl_defaults(self) -> dict[str, str]:
        """Read once, in a new network namespace (the kernel's defaults, not the node's settings)."""
        if self._sysctl_defaults is None:
            script = SYSCTL_DEFAULTS_SCRIPT.replace("'", "'\\''")
            self._sysctl_defaults = parse_sysctl_defaults(
                self._shell().run(f"unshare --net sh -c '{script}'", timeout=60).stdout)
        return self._sysctl_defaults

    def what_is_stuck(self) -> str:
        """Its processes stuck in the kernel and its hang messages, said in a line or two ('' if none or
        if the shell does not answer either)."""
        try:
            return describe_stuck(parse_stuck(self._shell().run(stuck_script(self.engine_log), timeout=30, check=False).stdout))
        except Exception as exc:
            return f"\n(its shell did not answer either: {str(exc).strip()[:200]})"

    def set_clock_from_ours(self) -> None:
        """Set its clock from ours, then measure what is left and take that off too (a `date -s @now`
        sent over a shell lands late by the shell's own start); what remains is measured and kept
        in clock, clock_offset_s (a guest's timeline is its clock: ComposeLab.now adds the offset)."""
        self._shell().run("true", timeout=30)             # a shared connection up: what is sent is set at once
        self._shell().run(f"date -s @{time.time():.6f} >/dev/null", timeout=30)
        self.clock = self.measure_clock()
        if abs(self.clock["offset_s"]) > CLOCK_TOLERANCE_S + self.clock["uncertainty_s"]:
            self._shell().run(f"date -s 'now {-self.clock['offset_s']:+.6f} seconds' >/dev/null", timeout=30)
            self.clock = self.measure_clock()
        self.clock_offset_s = self.clock["offset_s"]

    def measure_clock(self) -> dict[str, float]:
        """its clock - ours, from the sample with the shortest round trip (NTP's way), read
        through one bash whose `$EPOCHREALTIME` costs no process per sample."""
        reader = self._shell().popen("while read -r _; do echo $EPOCHREALTIME; done")
        assert reader.stdin and reader.stdout          # popen's pipes
        samples: list[tuple[float, float]] = []
        try:
            for _ in range(CLOCK_SAMPLES):
                before = time.time()
                reader.stdin.write("\n")
                reader.stdin.flush()
                theirs = float(reader.stdout.readline())
                after = time.time()
                samples.append((after - before, theirs - (before + after) / 2))
        finally:
            reader.stdin.close()
            reader.wait(timeout=10)
        rtt, offset = min(samples)
        return {"offset_s": round(offset, 4), "uncertainty_s": round(rtt / 2, 4)}
