"""Short, periodic stalls of a backend's receive path (seed 002: the host's softirq held up
for 100 ms and more, so SYNs and requests wait, then arrive in a batch). Everything arriving
on the target's link goes through an ifb device with a plug qdisc, blocked for `stall` every
`every` seconds and then released, by a loop inside the target (bounded in count, ended by the
heal). Nothing is dropped: established flows only wait.

The loop writes 'rx-stall block <t>' before each block and 'rx-stall release <t>' after each
release to the target's log (the run keeps it: logs/<target>.log), so each stall lies within
the two times the target's own clock printed. Needs sch_plug, ifb, mirred and matchall, which
Debian's guest kernels have and this host's 6.18 does not (preflight says so)."""
from typing import Any

from ..measure.effects import NONE, Effect, Landing
from ..topology import BACK, DIRECTOR
from .base import Fault, Setting

IFB = "bh-rxstall"
LOOP_MARK = "blackhole-rx-stall-loop"
MAX_STALLS = 2000
STALL_LINE = "rx-stall"


def _device_towards(address: str) -> str:
    return f"ip -o route get {address} | awk '{{for (i = 1; i < NF; i++) if ($i == \"dev\") {{print $(i + 1); exit}}}}'"


class RxStall(Fault):
    name = "rx_stall"
    params = {"target": Setting("server", help="the backend whose receive path stalls"),
              "stall": Setting("duration", default=0.2, help="how long each stall holds what arrives"),
              "every": Setting("duration", default=5.0, help="one stall this often")}

    @classmethod
    def problem(cls, params: dict[str, Any]) -> str | None:
        if not 0.001 <= params["stall"] < params["every"]:
            return f"stall ({params['stall']:g} s) must be at least 1 ms and shorter than every ({params['every']:g} s)"
        return None

    def acts_inside(self) -> set[str]:
        return {self.p["target"]}

    def qdiscs_needed(self) -> tuple[str, ...]:
        return ("plug",)

    def effect(self) -> Effect:
        return Effect(NONE)

    def _device(self) -> str:
        return _device_towards(self.lab.address(DIRECTOR, BACK))

    def inject(self) -> Landing | None:
        stall, rest = self.p["stall"], self.p["every"] - self.p["stall"]
        # The plug qdisc starts blocked: released before the redirect sends anything through it.
        setup = (f"set -e; dev=$({self._device()}); ip link add {IFB} type ifb; ip link set {IFB} up; "
                 f"tc qdisc add dev {IFB} root plug limit 10000000; tc qdisc change dev {IFB} root plug release_indefinite; "
                 f"tc qdisc add dev $dev handle ffff: ingress; "
                 f"tc filter add dev $dev parent ffff: matchall action mirred egress redirect dev {IFB}")
        # One tc reads the block and release commands from a pipe (tc -batch), and bash waits with
        # its own `read -t` on a FIFO nobody writes: no process to start per change (in a TCG guest
        # a `tc` or `sleep` started per change stretched 0.5 s stalls to 0.55-1.1 s).
        wait = "read -t {0:g} -u 9"
        loop = (f": {LOOP_MARK}; exec 2>/dev/null; fifo=$(mktemp -u); mkfifo $fifo; exec 9<>$fifo; rm $fifo; n=0; "
                f"while [ $n -lt {MAX_STALLS} ]; do "
                f"echo \"{STALL_LINE} block $EPOCHREALTIME\" >/proc/1/fd/1; echo \"qdisc change dev {IFB} root plug block\"; "
                f"{wait.format(stall)}; echo \"qdisc change dev {IFB} root plug release_indefinite\"; "
                f"echo \"{STALL_LINE} release $EPOCHREALTIME\" >/proc/1/fd/1; {wait.format(rest)}; n=$((n + 1)); done "
                f"| tc -force -batch -")
        target = self.p["target"]
        self.lab.exec(target, ["sh", "-c", setup])
        started = self.lab.exec(target, ["sh", "-c", f"date +%s.%N; setsid bash -c '{loop}' </dev/null >/dev/null 2>&1 &"])
        return Landing(float(started.stdout.split()[0]), 0.0)

    def recover(self) -> None:
        self.lab.exec(self.p["target"], ["sh", "-c",
                      f"pkill -f [{LOOP_MARK[0]}]{LOOP_MARK[1:]}; tc qdisc change dev {IFB} root plug release_indefinite; "
                      f"dev=$({self._device()}); tc qdisc del dev $dev ingress; ip link del {IFB}"], check=False)
