"""A backend vanishes without a FIN or RST reaching anyone.

Its own namespace is cut first: what reaches it is dropped from that moment (the death, stamped
inside the container as the cut lands), what it sends ANSWERS_IN_FLIGHT_S later, so a request
its kernel had already ACKed still gets its answer out (no client is left with nothing
unacknowledged, waiting for an answer that never comes: that is app_hang's effect, not a
blackhole's; seen once when a cut landed between nginx's ACK and its answer on a loaded
machine). Side by side with that second cut, every director drops what goes to it and comes
from it (in the forward hook, where conntrack DNAT sends packets, and in the input and output hooks, where IPVS-NAT sees them;
after the director's own filter, so a load balancer's reset of a removed server's flows still goes out),
before the server process is killed: once its container is gone a director's ARP for it would
fail, and the director would answer clients with ICMP 'host unreachable', a soft error, not a
blackhole. Its health checks (keepalived's) fail from the death on, as they would against a dead host.
"""
import time

from ..measure.effects import BLACKHOLE, Effect, Landing
from .server_process import process_on
from ..topology import is_director
from .base import Fault, Param, delete_tables, nft_table_script, stamped_nft

TABLE = "blackhole_fault_silent_kill"
ANSWERS_IN_FLIGHT_S = 0.05
# In the forward hook the cut comes after the director's own filter (lbctl's, at 0): what the
# director does to a removed server's flows (a reset, as a load balancer that took the dead server
# out sends) still happens; only what it would forward to the dead server is dropped. The input and
# output hooks keep the cut ahead of IPVS. In the output hook only what goes to the dead server is
# cut: the reset the director's filter sends a client leaves with the dead server's address, and
# is given the VIP's only after that hook (conntrack's un-DNAT, in postrouting).
DIRECTOR_PRIORITIES = {"forward": 10}


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
        before, after = stamped_nft(self.lab, target, nft_table_script(TABLE, {"input": ["drop"]}))
        time.sleep(ANSWERS_IN_FLIGHT_S)
        to_it, from_it = f"ip daddr {{ {addresses} }} drop", f"ip saddr {{ {addresses} }} drop"
        at_directors = nft_table_script(TABLE, {"input": [to_it, from_it], "forward": [to_it, from_it],
                                                "output": [to_it]}, DIRECTOR_PRIORITIES)
        in_and_out = nft_table_script(TABLE, {"input": ["drop"], "output": ["drop"]})
        # its own output and the directors' cut side by side: both come ANSWERS_IN_FLIGHT_S after
        # the input's at least, and both before the kill
        self.lab.exec_each([(target, ["nft", "-f", "-"], in_and_out),
                            *[(service, ["nft", "-f", "-"], at_directors) for service in self._directors()]])
        process_on(self.lab, target).kill(self.lab, target)
        return Landing(before, after - before)

    def recover(self):
        # The server stays dead (that is the fault); only the directors' cut is lifted.
        delete_tables(self.lab, self._directors(), TABLE)

    def _directors(self):
        return [service for service in self.lab.services() if is_director(service)]
