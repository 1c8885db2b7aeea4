"""A director dies silently: everything it would send or receive is dropped at once (ARP too: no
client is told anything, and no VRRP advertisement, not even the priority-0 one keepalived sends
when it gives the VIP up, leaves it), then its keepalived is killed, which stops its container.
With VRRP the other director takes the VIP over after missing its adverts
(harness/control/keepalived.py); healing it restarts the director, which takes the VIP back when
it preempts (a failback)."""
from typing import Any

from ..measure.effects import BLACKHOLE, Effect, Landing
from ..topology import DIRECTOR
from .base import Fault, FaultsLab, Setting, stamped_nft

BACKUP_DIRECTOR = f"{DIRECTOR}-backup"
TABLE = "blackhole_fault_director_kill"
CUT_EVERYTHING = f"""table inet {TABLE} {{
  chain input {{ type filter hook input priority -20; policy drop; }}
  chain output {{ type filter hook output priority -20; policy drop; }}
  chain forward {{ type filter hook forward priority -20; policy drop; }}
}}
table arp {TABLE} {{
  chain input {{ type filter hook input priority -20; policy drop; }}
  chain output {{ type filter hook output priority -20; policy drop; }}
}}
"""


class DirectorKill(Fault):
    name = "director_kill"
    params = {"target": Setting("str", DIRECTOR, choices=(DIRECTOR, BACKUP_DIRECTOR), help="the director that dies")}

    def __init__(self, lab: FaultsLab, **params: Any) -> None:
        super().__init__(lab, **params)
        self.dead = False

    def stops(self) -> set[str]:
        return {self.p["target"]}

    def effect(self) -> Effect:
        return Effect(BLACKHOLE)

    def inject(self) -> Landing | None:
        target = self.p["target"]
        before, after = stamped_nft(self.lab, target, CUT_EVERYTHING)
        self.dead = True
        # keepalived is the container's process: the container stops with it, taking this exec along
        self.lab.exec(target, ["pkill", "-KILL", "-x", "keepalived"], check=False)
        return Landing(before, after - before)

    def recover(self) -> None:
        """The director comes back (keepalived starts again, and takes the VIP back if it preempts)."""
        if self.dead:
            self.lab.restart(self.p["target"])
            self.dead = False
