"""Patroni promoting the replica by itself, HAProxy following it: the PostgreSQL servers run under
Patroni (images/postgres/patroni-start.sh) with one etcd member as its DCS (the `dcs` service), and
the director is HAProxy checking each server's Patroni REST API (`GET /primary`: 200 from the leader
only), as Patroni's own HAProxy template does. After a silent death of the primary nothing is
scripted: Patroni's leader key expires (ttl), the replica takes it and promotes itself, HAProxy's
checks mark the dead server down and the promoted one up. Its knobs are HAProxy's (haproxy.py) and
Patroni's DCS timers. docs/facts/postgres.md."""
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..topology import BACK, DIRECTOR
from .base import Addresses, NoticeWindow, PromotingDatabase, RunFiles, Setting, VersionCommands
from .haproxy import Haproxy
from .haproxy_settings import PATRONI_CHECK, TIMERS_LATE_S
from .promotion import Promotion, first_patroni_promotion, patroni_window

DCS = "dcs"                  # the etcd service's name
DCS_HOST = 30                # its address on the back network: <prefix>.30
DCS_PORT = 2379
POSTGRES_IMAGE = "blackhole-lab/postgres:dev"   # harness/databases/postgres.py's (the dcs runs etcd from it)
PATRONI_DEFAULTS = {"ttl": 30, "loop_wait": 10, "retry_timeout": 10}     # Patroni's own


def timers_problem(settings: Mapping[str, Any]) -> str | None:
    """Patroni's own rule on its timers ({name: value}, defaults for those not given), or None."""
    ttl = settings.get("ttl", PATRONI_DEFAULTS["ttl"])
    loop = settings.get("loop_wait", PATRONI_DEFAULTS["loop_wait"])
    retry = settings.get("retry_timeout", PATRONI_DEFAULTS["retry_timeout"])
    if loop + 2 * retry > ttl:
        return (f"loop_wait + 2 x retry_timeout ({loop} + 2 x {retry}) must not pass ttl ({ttl}): Patroni's "
                "rule, or a healthy leader may lose its key")
    return None


def _spec() -> dict[str, Setting]:
    spec = {name: setting for name, setting in Haproxy.settings_spec.items() if name != "check"}
    spec.update({
        "ttl": Setting("int", PATRONI_DEFAULTS["ttl"], 20, 3600, help="s the leader key lives unless renewed"),
        "loop_wait": Setting("int", PATRONI_DEFAULTS["loop_wait"], 1, 3600, help="s between Patroni's cycles"),
        "retry_timeout": Setting("int", PATRONI_DEFAULTS["retry_timeout"], 3, 3600,
                                 help="s Patroni retries the DCS and PostgreSQL before it demotes"),
    })
    return spec


class Patroni(Haproxy):
    name = "patroni"
    databases = ("postgres",)
    settings_spec = _spec()
    start_allowance_s = 60.0        # Patroni's bootstrap, then the replica's copy and its slot (one loop_wait)

    def __init__(self, settings: Iterable[tuple[str, Any]] = ()) -> None:
        values = dict(settings)
        self.patroni = {name: values.pop(name, default) for name, default in PATRONI_DEFAULTS.items()}
        super().__init__(tuple(values.items()))
        self.settings = dict(settings)
        self.config = dataclasses.replace(self.config, check=PATRONI_CHECK)

    @classmethod
    def problem(cls, settings: Mapping[str, Any]) -> str | None:
        return timers_problem(settings)

    def version_commands(self) -> VersionCommands:
        return (*super().version_commands(), ("patroni", "db-primary", ("patroni", "--version")),
                ("etcd", DCS, ("etcd", "--version")))

    def services(self, addresses: Addresses, database: PromotingDatabase, servers: Sequence[str]) -> dict[str, Any]:
        found = super().services(addresses, database, servers)
        dcs = f"{addresses['db-replica'][BACK].rsplit('.', 1)[0]}.{DCS_HOST}"
        found[DCS] = {"like": "db-replica", "image": POSTGRES_IMAGE, "addresses": {BACK: dcs},
                      "environment": {"ROLE": "dcs"}, "unset": ("depends_on", "tmpfs")}
        patroni = {"PATRONI_DCS": f"{dcs}:{DCS_PORT}", **{f"PATRONI_{k.upper()}": str(v) for k, v in self.patroni.items()}}
        for server in ("db-primary", "db-replica"):
            found[server] = {"environment": patroni}
        return found

    def promotion(self, run: RunFiles, t_fault: float) -> Promotion | None:
        """The first promotion after the fault, beside promotion_window(), and HAProxy marking it up."""
        return first_patroni_promotion(run, t_fault, self.promotion_window(), self.changes(run),
                                       lambda change: change.what.startswith("marked up"))

    def change_by_model(self, director: str | None = None, node_grace_s: float | None = None) -> NoticeWindow:
        """New sessions reach a server that takes writes once the replica promoted itself and
        HAProxy's checks (Patroni's /primary) marked it up: rise checks, the first within inter."""
        s, promoted = self.config.director(self.directors().get(director or DIRECTOR)), self.promotion_window()
        rising = (s.rise - 1) * s.transition_interval_s
        return NoticeWindow(promoted.expected_s + s.inter / 2 + rising, promoted.earliest_s + rising,
                            promoted.latest_s + s.inter + rising + TIMERS_LATE_S,
                            f"{promoted.basis}; then HAProxy marks it up after {s.rise} passed check(s)")

    def promotion_window(self) -> NoticeWindow:
        """From the death to the replica's promotion (promotion.patroni_window)."""
        return patroni_window(self.patroni)
