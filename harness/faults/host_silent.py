"""A host goes silent and its address stays: from the cut on, nothing it receives is answered and
nothing it sends leaves, while its kernel still answers ARP for it (nft's inet family does not see
ARP). So a client that talks to it directly, not through a director, is never told "host
unreachable": its packets vanish, as they do when a managed database's old primary dies behind its
DNS name. (silent_kill kills the server process and so the container's address; a client on the
same network would then get ICMP host unreachable from its own kernel after its ARP tries.)

Its input is cut first, its output ANSWERS_IN_FLIGHT_S later (silent_kill's reason: a request its
kernel already ACKed still gets its answer out). Its server process runs on behind the cut; the
host stays silent to the end of the run (that is the fault)."""
import time

from ..measure.effects import BLACKHOLE, Effect, Landing
from .base import Fault, Param, nft_table_script, stamped_nft
from .silent_kill import ANSWERS_IN_FLIGHT_S

TABLE = "blackhole_fault_host_silent"


class HostSilent(Fault):
    name = "host_silent"
    params = {"target": Param("server", help="the server whose host goes silent")}

    def acts_inside(self):
        return {self.p["target"]}

    def effect(self):
        return Effect(BLACKHOLE)

    def inject(self):
        target = self.p["target"]
        before, after = stamped_nft(self.lab, target, nft_table_script(TABLE, {"input": ["drop"]}))
        time.sleep(ANSWERS_IN_FLIGHT_S)
        self.lab.exec(target, ["nft", "-f", "-"], stdin=nft_table_script(TABLE, {"input": ["drop"], "output": ["drop"]}))
        return Landing(before, after - before)
