"""A backend vanishes without a FIN or RST reaching anyone.

Its links are cut first (everything dropped in its own namespace, so the kill's FIN/RST
never leaves; and on the director, so nothing reaches it and no ICMP 'host unreachable' is
ever generated), then its server process is killed. The director stops what goes to it
ANSWERS_IN_FLIGHT_S before what comes from it: a request the server's kernel had already
ACKed still gets its answer out, so no client is left with nothing unacknowledged, waiting for
an answer that never comes (that is app_hang's effect, not a blackhole's; seen once when the
cut landed between nginx's ACK and its answer on a loaded machine). On the director the cut
is in the forward hook, where conntrack DNAT (nftables datapath) sends packets, and in the
input and output hooks, where IPVS-NAT sees them (LOCAL_IN, and LOCAL_OUT for what it sends on).
"""
import time

from ..effects import BLACKHOLE, Effect
from ..server_process import process_on
from ..topology import DIRECTOR
from .base import Fault, Param, delete_table, nft_table_script

TABLE = "blackhole_fault_silent_kill"
ANSWERS_IN_FLIGHT_S = 0.05
HOOKS = ("input", "output", "forward")


class SilentKill(Fault):
    name = "silent_kill"
    params = {"target": Param("server", help="the server that disappears")}

    def stops(self):
        return {self.p["target"]}           # its server process is its container's life

    def acts_inside(self):
        return {self.p["target"]}

    def effect(self):
        return Effect(BLACKHOLE)

    def inject(self):
        target = self.p["target"]
        addresses = ", ".join(self.lab.addresses(target))
        to_it, from_it = f"ip daddr {{ {addresses} }} drop", f"ip saddr {{ {addresses} }} drop"
        self.lab.exec(DIRECTOR, ["nft", "-f", "-"], stdin=nft_table_script(TABLE, {hook: [to_it] for hook in HOOKS}))
        time.sleep(ANSWERS_IN_FLIGHT_S)
        cut_on_director = nft_table_script(TABLE, {hook: [to_it, from_it] for hook in HOOKS})
        self.lab.exec(DIRECTOR, ["nft", "-f", "-"], stdin=cut_on_director)
        cut_inside = nft_table_script(TABLE, {"input": ["drop"], "output": ["drop"]})
        self.lab.exec(target, ["nft", "-f", "-"], stdin=cut_inside)
        process_on(self.lab, target).kill(self.lab, target)

    def recover(self):
        # The server stays dead (that is the fault); only the director's cut is lifted.
        delete_table(self.lab, DIRECTOR, TABLE)
