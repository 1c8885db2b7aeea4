"""Patroni promoting the replica by itself, and its callback re-pointing the database's name: the
PostgreSQL servers run under Patroni (images/postgres/patroni-start.sh, one etcd member as its DCS,
as the patroni plane runs them), the clients connect to the database's name as under the dns plane
(dnsmasq on the director), and nothing is scripted after the death. Patroni's leader key expires,
the replica takes it and promotes itself, and Patroni's on_role_change callback on the promoted
server asks the director to re-point the name at it (images/director/lab-dns-api, which runs
lab-dns-move): the pattern of a Patroni cluster whose clients find the primary by DNS. "LB noticed"
is when the record changed, from the director's own log. docs/facts/dns.md."""
from collections.abc import Mapping, Sequence
from typing import Any

from ..topology import BACK, DIRECTOR
from .base import Addresses, DirectorChange, NoticeWindow, PromotingDatabase, RunFiles, Setting, VersionCommands
from .dns import NAME, PORT, Dns
from .patroni import DCS, DCS_HOST, DCS_PORT, PATRONI_DEFAULTS, POSTGRES_IMAGE, timers_problem
from .promotion import Promotion, first_patroni_promotion, patroni_window

API_PORT = 8053              # lab-dns-api's, on the director's back address
MOVED = "lab-dns-api: "      # the director's log line of a move it made
# From the promotion (Patroni's log line) to the record changed: Patroni runs its callback right after
# pg_ctl promote, which posts to the director, which rewrites dnsmasq's hosts and asks until it answers.
CALLBACK_S = 1.5


class PatroniDns(Dns):
    name = "patroni-dns"
    databases = ("postgres",)
    acts_by_itself = True
    start_allowance_s = 60.0        # Patroni's bootstrap, then the replica's copy (as the patroni plane's)
    settings_spec = {
        "record_ttl": Setting("int", 5, 0, 86400, help="s the name's answers say they may be cached (the record's "
                                                      "TTL, the dns plane's ttl)"),
        "cache": Dns.settings_spec["cache"],
        "ttl": Setting("int", PATRONI_DEFAULTS["ttl"], 20, 3600, help="s Patroni's leader key lives unless renewed"),
        "loop_wait": Setting("int", PATRONI_DEFAULTS["loop_wait"], 1, 3600, help="s between Patroni's cycles"),
        "retry_timeout": Setting("int", PATRONI_DEFAULTS["retry_timeout"], 3, 3600,
                                 help="s Patroni retries the DCS and PostgreSQL before it demotes"),
    }

    @classmethod
    def problem(cls, settings: Mapping[str, Any]) -> str | None:
        return timers_problem(settings)

    @property
    def ttl_s(self) -> int:
        return int(self.settings.get("record_ttl", self.settings_spec["record_ttl"].default))

    @property
    def patroni(self) -> dict[str, Any]:
        return {name: self.settings.get(name, default) for name, default in PATRONI_DEFAULTS.items()}

    def services(self, addresses: Addresses, database: PromotingDatabase, servers: Sequence[str]) -> dict[str, Any]:
        found = super().services(addresses, database, servers)
        prefix = addresses["db-replica"][BACK].rsplit(".", 1)[0]
        dcs, director = f"{prefix}.{DCS_HOST}", addresses[DIRECTOR][BACK]
        found[DCS] = {"like": "db-replica", "image": POSTGRES_IMAGE, "addresses": {BACK: dcs},
                      "environment": {"ROLE": "dcs"}, "unset": ("depends_on", "tmpfs")}
        found[DIRECTOR]["environment"].update({"DNS_API_PORT": str(API_PORT), "DNS_API_LISTEN": director})
        patroni = {"PATRONI_DCS": f"{dcs}:{DCS_PORT}", **{f"PATRONI_{k.upper()}": str(v) for k, v in self.patroni.items()},
                   "PATRONI_ROLE_CHANGE_URL": f"http://{director}:{API_PORT}/primary"}
        for server in ("db-primary", "db-replica"):
            if server in found:
                found[server]["environment"] = patroni
        return found

    def version_commands(self) -> VersionCommands:
        return (*super().version_commands(), ("patroni", "db-primary", ("patroni", "--version")),
                ("etcd", DCS, ("etcd", "--version")))

    def changes(self, run: RunFiles) -> list[DirectorChange]:
        """Each move lab-dns-api made, from the director's log: the record changed between its stamps."""
        found = []
        for line in run.read(run.service_log(DIRECTOR)).splitlines():
            if MOVED not in line or " promoted: " not in line:
                continue
            words = line.split(MOVED, 1)[1].split()
            server, address, before, after = words[0], words[4], float(words[6]), float(words[8])
            found.append(DirectorChange(before, round(after - before, 6), f"{NAME} -> {address} ({server})",
                                        f"Patroni's on_role_change callback on {server}", DIRECTOR,
                                        f"{NAME}:{PORT}"))
        return sorted(found, key=lambda change: change.t)

    def lb_noticed(self, change: DirectorChange | None, death_t: float) -> NoticeWindow:
        promoted = self.promotion_window()
        return NoticeWindow(promoted.expected_s + CALLBACK_S / 2, promoted.earliest_s, promoted.latest_s + CALLBACK_S,
                            f"{promoted.basis}; then its on_role_change callback re-points {NAME}")

    def change_by_model(self, director: str | None = None, node_grace_s: float | None = None) -> NoticeWindow:
        """New connections whose lookup asks the record reach the promoted server once the callback ran."""
        return self.lb_noticed(None, 0.0)

    def promotion_window(self) -> NoticeWindow:
        """As the patroni plane's (promotion.patroni_window)."""
        return patroni_window(self.patroni)

    def promotion(self, run: RunFiles, t_fault: float) -> Promotion | None:
        """The first promotion after the fault (Patroni's own log line), beside promotion_window(),
        and the director re-pointing the name after it."""
        return first_patroni_promotion(run, t_fault, self.promotion_window(), self.changes(run), lambda change: True,
                                       director_by="at Patroni's on_role_change callback",
                                       director=lambda change: DIRECTOR)


