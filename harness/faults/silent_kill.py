"""A backend vanishes without a FIN or RST reaching anyone.

Its own namespace is cut first: what reaches it is dropped from that moment (the death, stamped
inside the container as the cut lands). What it sends is cut once the requests its kernel had
already taken have their answers out, read from its own kernel (answers_out.py): a client left with
its request acknowledged and no answer coming does not retransmit, which is app_hang's effect, not
a blackhole's (seen once when a cut landed between nginx's ACK and its answer on a loaded machine).
Then every director drops what goes to it and comes from it (in the forward hook, where conntrack
DNAT sends packets, and in the input and output hooks, where IPVS-NAT sees them; after the
director's own filter, so a load balancer's reset of a removed server's flows still goes out), and
only then is the server process killed: once its container is gone a director's ARP for it would
fail, and the director would answer clients with ICMP 'host unreachable', a soft error, not a
blackhole. Its health checks (keepalived's) fail from the death on, as they would against a dead host.
"""
from ..measure.effects import BLACKHOLE, Effect, Landing
from .answers_out import go_silent
from .server_process import process_on
from ..topology import is_director
from .base import Fault, Setting, delete_tables, nft_table_script

TABLE = "blackhole_fault_silent_kill"
# In the forward hook the cut comes after the director's own filter (lbctl's, at 0): what the
# director does to a removed server's flows (a reset, as a load balancer that took the dead server
# out sends) still happens; only what it would forward to the dead server is dropped. The input and
# output hooks keep the cut ahead of IPVS. In the output hook only what goes to the dead server is
# cut: the reset the director's filter sends a client leaves with the dead server's address, and
# is given the VIP's only after that hook (conntrack's un-DNAT, in postrouting).
DIRECTOR_PRIORITIES = {"forward": 10}


class SilentKill(Fault):
    name = "silent_kill"
    params = {"target": Setting("server", help="the server that disappears")}

    def stops(self) -> set[str]:
        return {self.p["target"]}           # its server process is its container's life

    def acts_inside(self) -> set[str]:
        return {self.p["target"]}

    def effect(self) -> Effect:
        return Effect(BLACKHOLE)

    def inject(self) -> Landing:
        target = self.p["target"]
        addresses = ", ".join(self.lab.addresses(target))
        landing = go_silent(self.lab, target, TABLE)
        to_it, from_it = f"ip daddr {{ {addresses} }} drop", f"ip saddr {{ {addresses} }} drop"
        at_directors = nft_table_script(TABLE, {"input": [to_it, from_it], "forward": [to_it, from_it],
                                                "output": [to_it]}, DIRECTOR_PRIORITIES)
        # the directors' cut after the server's own output cut (it drops the answers they forward),
        # and before the kill
        self.lab.exec_each([(service, ["nft", "-f", "-"], at_directors) for service in self._directors()])
        process_on(self.lab, target).kill(self.lab, target)
        return landing

    def recover(self) -> None:
        # The server stays dead (that is the fault); only the directors' cut is lifted.
        delete_tables(self.lab, self._directors(), TABLE)

    def _directors(self) -> list[str]:
        return [service for service in self.lab.services() if is_director(service)]
