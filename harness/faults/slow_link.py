"""A slow, lossy path: tc netem on every link of a node (its egress: a backend's answers, a
director's forwarding both ways, a client's requests) from the step until healed. Nothing is
cut, so existing flows go on, later; where loss is set, the kernel retransmits what was lost.
Needs sch_netem (a guest kernel here; preflight says so)."""
from typing import Any

from ..measure.effects import NONE, Effect, Landing
from .base import Fault, Setting

LINKS = "ip -o link show | awk -F': ' '$2 != \"lo\" {sub(/@.*/, \"\", $2); print $2}'"


class SlowLink(Fault):
    name = "slow_link"
    params = {"node": Setting("node", help="the node whose links get slow"),
              "delay": Setting("duration", help="added to every packet it sends"),
              "jitter": Setting("duration", default=0.0, help="the delay varies by up to this much"),
              "loss_pct": Setting("percent", default=0.0, help="share of its packets dropped")}

    @classmethod
    def problem(cls, params: dict[str, Any]) -> str | None:
        return "delay must be more than 0 (jitter varies it)" if params["delay"] <= 0 else None

    def acts_inside(self) -> set[str]:
        return {self.p["node"]}

    def qdiscs_needed(self) -> tuple[str, ...]:
        return ("netem",)

    def effect(self) -> Effect:
        return Effect(NONE)

    def netem(self) -> str:
        words = f"delay {self.p['delay'] * 1000:g}ms"
        if self.p["jitter"]:
            words += f" {self.p['jitter'] * 1000:g}ms"
        if self.p["loss_pct"]:
            words += f" loss {self.p['loss_pct']:g}%"
        return words

    def inject(self) -> Landing | None:
        script = f"date +%s.%N; for dev in $({LINKS}); do tc qdisc replace dev $dev root netem {self.netem()}; done; date +%s.%N"
        before, after = map(float, self.lab.exec(self.p["node"], ["sh", "-c", script]).stdout.split())
        return Landing(before, after - before)

    def recover(self) -> None:
        """The delay goes to 0 first and what it holds drains before the qdisc goes: deleting a netem
        qdisc drops what is queued in it (each dropped SYN-ACK a 1 s SYN retransmission)."""
        drain_s = 1.5 * (self.p["delay"] + self.p["jitter"]) + 0.05
        self.lab.exec(self.p["node"], ["sh", "-c", f"for dev in $({LINKS}); do tc qdisc change dev $dev root netem delay 0ms; "
                      f"done; sleep {drain_s:.3f}; for dev in $({LINKS}); do tc qdisc del dev $dev root; done"],
                      check=False)
