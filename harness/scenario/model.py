"""What a failover scenario is, once validated: frozen data, no behaviour beyond naming."""
import dataclasses
import typing
from typing import Any

from ..databases import DATABASES, DEFAULT_DATABASE
from ..faults.base import Fault, FaultsLab
from ..load.clients import CLIENTS, DEFAULT_CLIENT
from ..load.specs import ConnectProbe, Probe, Sysbench, Writer, Wrk
from ..measure.effects import Effect
from ..measure.host_monitor import HostMonitor
from ..topology import DEFAULT_CELL_NAMESPACES, PROTOCOL_SERVERS, SERVERS
from .knobs import KERNEL_DEFAULTS, LINK_KNOBS, SYSCTL_KNOBS


@dataclasses.dataclass(frozen=True)
class Cell:
    """One measured client: namespace sysctls, per-socket options, application behaviour.
    Cells with the same sysctls share a client container (a network namespace)."""
    name: str
    sysctls: tuple[tuple[str, int], ...] = ()   # (("tcp_retries2", 5), ...): only knobs the scenario set
    tcp_user_timeout_ms: int = 0     # TCP_USER_TIMEOUT on its sockets (0: unset)
    keepalive: tuple[int, ...] = ()  # (idle_s, interval_s, probes) set per socket; (): not set
    read_timeout_s: float = 0.0      # the application's read timeout: the probe's, or the driver setting's (0: none)
    connect_timeout_s: float | None = None   # the lab's probe's connect limit (None: its own 5 s; 0: none, the SYN retries)
    idle_s: float = 0.0              # the probe sends nothing for this long around the fault
    target_session_attrs: str | None = None   # libpq's, for the lab's probe on PostgreSQL (None: libpq's any)
    sysbench: bool = True            # also runs sysbench (when the scenario has a sysbench load)
    link: tuple[tuple[str, float], ...] = ()   # (("link_delay_ms", 50), ...): netem on the client's side
    client: str = DEFAULT_CLIENT     # which program holds the connection (load/clients.py)
    client_settings: tuple[tuple[str, Any], ...] = ()   # (("socketTimeout", 3000), ...): the driver's own settings
    director: str | None = None             # the director variant it connects through (None: the main director)
    account: str = "shared"          # the MySQL account it logs in with (ACCOUNTS)
    pool: str | None = None                 # a connection pool between the client and the VIP (harness/pools/)
    pool_settings: tuple[tuple[str, Any], ...] = ()   # (("query_timeout", 5), ...): the pool's own settings
    waited_for: bool = True          # False: the observation ends without it once every other cell is back
    hosts: tuple[str, ...] = ()      # the servers a multi-host client lists, in order, by their own names (control: dns)

    @property
    def database_user(self) -> str:
        """The account's user name: the lab's shared one, or one named after the cell."""
        return SHARED_ACCOUNT if self.account == "shared" else "c_" + self.name.replace("-", "_")[:30]

    @property
    def socket_options_reach_kernel(self) -> bool:
        """Whether TCP_USER_TIMEOUT/keepalive set by the preloaded libsockopts reach its sockets."""
        return CLIENTS[self.client].via_libc

    @property
    def host_monitor(self) -> HostMonitor | None:
        """Its driver's host monitor (measure/host_monitor.py), None where it has none or it is off."""
        return HostMonitor.of(self.client_settings) if CLIENTS[self.client].host_monitor else None

    def knob(self, key: str) -> Any:
        return dict(self.sysctls).get(key, KERNEL_DEFAULTS.get(key))

    def kernel_sysctls(self) -> tuple[tuple[str, Any], ...]:
        return tuple((SYSCTL_KNOBS[k].sysctl, v) for k, v in self.sysctls)

    def netem(self) -> str:
        """The netem arguments of its link ('delay 50ms loss 1%'), '' when the link is left alone."""
        return " ".join(f"{LINK_KNOBS[k][0]} {v:g}{LINK_KNOBS[k][1]}".strip() for k, v in self.link)

    @property
    def namespace(self) -> str:
        """The name of the client container this cell runs in: its sysctls and link, spelled out."""
        parts = [f"{SYSCTL_KNOBS[k].abbreviation}{v}" for k, v in self.sysctls]
        parts += [f"{LINK_KNOBS[k][4]}{v:g}".replace(".", "p") for k, v in self.link]
        return "-".join(parts) or "default"

    @property
    def service(self) -> str:
        """The Compose service of that container."""
        return client_service(self.namespace)

    def socket_env(self) -> dict[str, str]:
        """SOCKOPT_* variables for libsockopts (see images/client/preload/libsockopts.c)."""
        env = {}
        if self.tcp_user_timeout_ms:
            env["SOCKOPT_TCP_USER_TIMEOUT_MS"] = str(self.tcp_user_timeout_ms)
        if self.keepalive:
            idle, interval, probes = self.keepalive
            env.update(SOCKOPT_KEEPALIVE="1", SOCKOPT_KEEPIDLE=str(idle), SOCKOPT_KEEPINTVL=str(interval),
                       SOCKOPT_KEEPCNT=str(probes))
        return env


# shared: the lab's own account, which any client's login warms (caching_sha2_password keeps a
# login in its cache; docs/facts/mysql.md). cold: an account of the cell's own nobody has logged in with.
# primed: one logged in once on the primary before the clients start, as an account in use is: the
# replica, promoted, has never seen it log in.
ACCOUNTS = ("shared", "cold", "primed")
SHARED_ACCOUNT = "sbtest"
ACCOUNT_PASSWORD = "sbtest"      # every account's (images/client/zoo/ has it too)


def client_service(namespace: str) -> str:
    """The Compose service of the client container named `namespace`."""
    return f"client-{namespace}"


@dataclasses.dataclass(frozen=True)
class LoadBalancer:
    """Director settings a scenario fixes for its whole run (the lab is brought up with them)."""
    idle_timeout_s: int = 900
    conntrack_loose: int = 1        # nftables datapath: net.netfilter.nf_conntrack_tcp_loose

    def lab_env(self) -> dict[str, str]:
        return {"LB_IDLE_TIMEOUT": str(self.idle_timeout_s), "LB_CONNTRACK_LOOSE": str(self.conntrack_loose)}


@dataclasses.dataclass(frozen=True)
class Replication:
    """How the replica follows the primary: async, or semi-sync (a commit waits for the replica's
    receipt, at most semi_sync_timeout_ms, then the primary falls back to async)."""
    mode: str = "async"
    semi_sync_timeout_ms: int = 10_000

    def lab_env(self) -> dict[str, str]:
        return {"REPLICATION": self.mode, "SEMI_SYNC_TIMEOUT_MS": str(self.semi_sync_timeout_ms)}


@dataclasses.dataclass(frozen=True)
class Step:
    kind: str                # "fault" | "heal" | "wait"
    name: str = ""           # fault name (fault, heal)
    params: tuple[tuple[str, Any], ...] = ()       # (("target", "db-primary"), ...)
    seconds: float = 0.0     # wait
    fault: type[Fault] | None = dataclasses.field(default=None, compare=False, repr=False)   # the Fault class, bound at parse

    def make_fault(self, lab: FaultsLab | None = None) -> Fault:
        """The step's fault, speaking to `lab` (None: only to ask what it declares)."""
        if self.fault is None:
            raise ValueError(f"a {self.kind} step {self.name!r} has no fault class bound (scenario.parser binds it)")
        # without a lab it is only asked what it declares (effect, unchecked, stops), none of which speaks to one
        return self.fault(typing.cast(FaultsLab, lab), **dict(self.params))

    def effect(self) -> Effect:
        """The Effect (harness/measure/effects.py) the step's fault declares."""
        return self.make_fault().effect()

    def describe(self) -> str:
        if self.kind == "wait":
            return f"wait {self.seconds:g} s"
        args = " ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.kind} {self.name}" + (f" ({args})" if args else "")


@dataclasses.dataclass(frozen=True)
class Scenario:
    id: str
    description: str
    cells: tuple[Cell, ...]
    steps: tuple[Step, ...]
    warmup_s: float
    observe_s: float
    sysbench: Sysbench | None = None
    probe: Probe = Probe()
    datapath: str = "auto"
    wrk: Wrk | None = None
    connect: ConnectProbe | None = None     # connection-setup latency prober (load.connect), or none
    writer: Writer | None = None            # the data-accounting writer (load.writer), or none
    lb: LoadBalancer = LoadBalancer()
    fault_settings: tuple[tuple[str, str], ...] = ()       # (("LB_IDLE_TIMEOUT", "20"), ...): what its faults need from the start
    cell_namespaces: str = DEFAULT_CELL_NAMESPACES   # a container per namespace, or netns in one container
    control: str = "manual"          # who changes the director (harness/control/)
    control_settings: tuple[tuple[str, Any], ...] = ()     # (("delay_loop", 2.0), ...): that control plane's settings, as given
    database: str = DEFAULT_DATABASE  # the engine the database servers run (harness/databases/)
    replication: Replication = Replication()

    kind = "failover"

    def lab_env(self) -> dict[str, str]:
        return {**self.lb.lab_env(), **self.replication.lab_env(), **dict(self.fault_settings)}

    def runs_sysbench(self, cell: Cell) -> bool:
        return bool(self.sysbench) and cell.sysbench

    @property
    def probe_protocol(self) -> str:
        """What the probe speaks: load.probe.proto, where 'mysql' (the database service) is the
        database engine's own protocol."""
        return DATABASES[self.database].wire_protocol if self.probe.proto == "mysql" else self.probe.proto

    def servers_used(self) -> tuple[str, ...]:
        """The servers the run uses: its loads' and any a step names (the lab starts only these)."""
        needed = set(PROTOCOL_SERVERS[self.probe.proto])
        if self.sysbench:
            needed |= set(PROTOCOL_SERVERS["mysql"])
        if self.wrk:
            needed |= set(PROTOCOL_SERVERS["http"])
        needed |= {value for step in self.steps for _, value in step.params if value in SERVERS}
        return tuple(sorted(needed))
