"""The dns control plane's failover step (harness/control/dns.py): the database's name re-pointed at
the promoted server, as a managed database's failover re-points its endpoint. The record changed
between the moment the name server's hosts file was replaced and its first answer with the new
address (images/director/lab-dns-move stamps both)."""
from ..control.dns import NAME
from ..measure.effects import NONE, Effect, Landing
from ..topology import DIRECTOR, FRONT, PROTOCOL_SERVERS, VIP_HOST
from .base import Fault, Setting


class DnsMove(Fault):
    name = "dns_move"
    control_planes = ("dns",)
    params = {"to": Setting("database", "db-replica", help="the server the name answers from now on")}

    def effect(self) -> Effect:
        """Existing connections are not touched: only a new connect's lookup sees the move."""
        return Effect(NONE)

    def inject(self) -> Landing | None:
        director_front = self.lab.address(DIRECTOR, FRONT)
        name_server = f"{director_front.rsplit('.', 1)[0]}.{VIP_HOST}"
        hosts = self.lab.exec(DIRECTOR, ["cat", "/run/lab-dns/hosts"]).stdout.splitlines()
        old = next(line.split()[0] for line in hosts if NAME in line.split()[1:])
        new = self.lab.address(self.p["to"], FRONT)
        old_server = next((s for s in PROTOCOL_SERVERS["mysql"] if self.lab.address(s, FRONT) == old), None)
        before, after = map(float, self.lab.exec(DIRECTOR, ["lab-dns-move", NAME, new, name_server]).stdout.split())
        return Landing(before, round(after - before, 6), {"old_address": old, "new_address": new, "old_server": old_server})
