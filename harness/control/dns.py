"""A name that moves, as managed databases fail over (RDS Multi-AZ, Aurora's cluster endpoint, Azure's
flexible servers): the clients connect to the database's name, not to a VIP; a name server
(dnsmasq, on the director's node, at the VIP's address) answers it with the primary's own address
and the record's TTL; the failover re-points the name at the promoted server (the `dns_move` step,
faults/dns_move.py). Nothing stands between a client and its server, so nothing resets a client's
connection to the old address: each client meets the blackhole with its own kernel, and each
reconnect resolves the name again through whatever caches it has. "LB noticed" is when the record
changed. docs/facts/dns.md."""
from collections.abc import Sequence
from typing import Any

from ..topology import DIRECTOR, FRONT, LAB_DOMAIN, SERVICE_SERVERS, host_name
from .base import (
    Addresses, ControlPlane, DirectorChange, NoticeWindow, PromotingDatabase, RunFiles, Setting,
    VersionCommands)

NAME = f"db.{LAB_DOMAIN}"    # the database's name the clients connect to (each server has its own too)
MOVE = "dns_move"            # the fault step that re-points it (faults/dns_move.py)
# The database servers' own addresses on the clients' network (front): outside the range the
# client namespaces take (.20-.119, lab/netns_cells.py) and Docker's own (.128 and up).
FRONT_HOSTS = {"db-primary": 121, "db-replica": 122}
PORT = 3306


class Dns(ControlPlane):
    name = "dns"
    settings_spec = {
        "ttl": Setting("int", 5, 0, 86400, help="s the name's answers say they may be cached (the record's TTL; 0: "
                                              "not at all); no client of the lab caches by it but through nscd "
                                              "(cache: nscd): glibc keeps nothing, the JVM keeps its own "
                                              "networkaddress.cache.ttl"),
        "cache": Setting("str", "none", choices=("none", "nscd"),
                         help="a caching daemon on the clients' host: nscd (glibc's, which every getaddrinfo asks "
                              "first: it keeps an answer the record's TTL, and reloads it at most every 15 s), or "
                              "none"),
    }

    @property
    def ttl_s(self) -> int:
        return int(self.settings.get("ttl", self.settings_spec["ttl"].default))

    @property
    def name_cache(self) -> str | None:
        """The caching daemon on the clients' host (None: none)."""
        cache = str(self.settings.get("cache", self.settings_spec["cache"].default))
        return None if cache == "none" else cache

    def lab_settings(self) -> dict[str, str]:
        """The clients' resolver asks the director's name server, through nscd where asked
        (images/client/client-start)."""
        return {"LB_CONTROL": self.name, "LAB_RESOLVER": "director", "LAB_NAME_CACHE": self.name_cache or ""}

    def client_address(self, vip: str) -> str:
        """What the clients connect to: the name, not the VIP."""
        return NAME

    def front_address(self, addresses: Addresses, server: str) -> str:
        prefix = addresses[DIRECTOR][FRONT].rsplit(".", 1)[0]
        return f"{prefix}.{FRONT_HOSTS[server]}"

    def services(self, addresses: Addresses, database: PromotingDatabase, servers: Sequence[str]) -> dict[str, Any]:
        """The director runs dnsmasq and forwards nothing (LB_SERVICES empty); each database server
        gets an address on the clients' network, the name answering the primary's, and each server's
        own name its own (what a client that lists every host connects to)."""
        primary, _ = SERVICE_SERVERS["mysql"]
        own = " ".join(f"{self.front_address(addresses, s)} {host_name(s)}" for s in SERVICE_SERVERS["mysql"] if s in servers)
        found = {DIRECTOR: {"environment": {"LB_CONTROL": self.name, "LB_SERVICES": "", "DNS_NAME": NAME,
                                            "DNS_TTL": str(self.ttl_s),
                                            "DNS_ADDRESS": self.front_address(addresses, primary),
                                            "DNS_SERVERS": own}}}
        for server in SERVICE_SERVERS["mysql"]:
            if server in servers:
                found[server] = {"addresses": {FRONT: self.front_address(addresses, server)}}
        return found

    def version_commands(self) -> VersionCommands:
        return (("dnsmasq", DIRECTOR, ("dnsmasq", "--version")),)

    def changes(self, run: RunFiles) -> list[DirectorChange]:
        """Each time the name was re-pointed, from the step's own event: the record changed between
        the moment the hosts file was replaced and dnsmasq's first answer with the new address."""
        changes = []
        for event in run.events():
            if event.get("source") == "harness" and event["event"] == "fault" and event["name"] == MOVE:
                seen = event["seen"]
                changes.append(DirectorChange(event["t"], event["uncertainty_s"],
                                              f"{NAME} -> {seen['new_address']} ({event['params']['to']})",
                                              f"scenario step {event['step']}", DIRECTOR,
                                              f"{seen['old_address']}:{PORT}"))
        return changes

    def lb_noticed(self, change: DirectorChange, death_t: float) -> NoticeWindow:
        """The operator's (or the managed service's) re-pointing is the change itself."""
        delay = max(0.0, change.t - death_t)
        return NoticeWindow(delay, delay, delay + change.uncertainty_s, "the name re-pointed by the failover step")
