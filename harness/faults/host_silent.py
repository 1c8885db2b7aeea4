"""A host goes silent and its address stays: from the cut on, nothing it receives is answered and
nothing it sends leaves, while its kernel still answers ARP for it (nft's inet family does not see
ARP). So a client that talks to it directly, not through a director, is never told "host
unreachable": its packets vanish, as they do when a managed database's old primary dies behind its
DNS name. (silent_kill kills the server process and so the container's address; a client on the
same network would then get ICMP host unreachable from its own kernel after its ARP tries.)

Its input is cut first, its output once the requests its kernel already took have their answers
out (answers_out.py; silent_kill's reason). Its server process runs on behind the cut; the
host stays silent to the end of the run (that is the fault)."""
from ..measure.effects import BLACKHOLE, Effect, Landing
from .answers_out import go_silent
from .base import Fault, Setting

TABLE = "blackhole_fault_host_silent"


class HostSilent(Fault):
    name = "host_silent"
    params = {"target": Setting("server", help="the server whose host goes silent")}

    def acts_inside(self) -> set[str]:
        return {self.p["target"]}

    def effect(self) -> Effect:
        return Effect(BLACKHOLE)

    def inject(self) -> Landing | None:
        return go_silent(self.lab, self.p["target"], TABLE)
