"""kube-proxy as the director's control plane: the real kube-proxy (built from the Go modules,
scripts/ensure-kube.sh) in the director's network namespace, watching a real API server (etcd and
kube-apiserver in the lab's `kube-api` container). The harness plays Kubernetes' endpoint
controller: faults in Kubernetes' terms (harness/faults/endpoint_*.py, node_lost.py) write the
Service's EndpointSlice, and kube-proxy reprograms the director by itself.

  ipvs mode      a removed or unready endpoint goes to weight 0 while it has connections
                 ("graceful termination"), deleted once it has none (checked every minute);
                 net.ipv4.vs.expire_nodest_conn=1 and expire_quiescent_template=1 set.
  nftables mode  no drain at all: the endpoint leaves the service's chain at once, and a TCP
                 flow keeps the conntrack DNAT it had to the backend that is gone.
Either way a flow to a backend that vanished silently stays a blackhole until the client's own
kernel gives up (kubernetes#71358, #77903). docs/facts/production.md section 3."""
from collections.abc import Sequence

from ..measure.effects import Effect
from typing import Any

from ..measure import director_table
from ..topology import BACK, DIRECTOR, FRONT, SERVICE_PORTS, SERVICE_SERVERS
from . import kube_proxy_log, kube_proxy_metrics
from .base import (
    Addresses, ControlPlane, DirectorChange, NoticeWindow, PlaneImage, PlanesLab, PromotingDatabase,
    RunFiles, Setting, VersionCommands)

IMAGE = "blackhole-lab/kube:dev"
API_SERVICE, PROXY_SERVICE = "kube-api", "kube-proxy"
API_HOST, API_PORT = 40, 6443            # the API server: the back network's .40
MODES = ("auto", "ipvs", "nftables")
# Healthy once kube-proxy's first sync has programmed the director: its sync timestamp metric
# exists from then on. (Its /healthz answers 200 while it starts up, before any sync: in a TCG
# guest the first IPVS sync took 22 s, and a client that trusted /healthz met no virtual server.)
METRICS_PAGE = "exec 3<>/dev/tcp/127.0.0.1/10249 && printf 'GET /metrics HTTP/1.0\\r\\n\\r\\n' >&3 "
SYNCED = METRICS_PAGE + "&& grep -q '^kubeproxy_sync_proxy_rules_last_timestamp_seconds{ip_family=\"IPv4\"} [1-9]' <&3"
SYNC_METRICS = METRICS_PAGE + "&& grep '^kubeproxy_sync_proxy_rules_' <&3"
# Failed checks while the API server starts do not count (start_period), however long an emulated
# guest takes. Every HEALTH_INTERVAL (10 s on this host and in a guest: docs/facts/host.md, each
# check a process started through runc) while the lab's own loop checks the starting container.
STARTING = {"interval": "${HEALTH_INTERVAL:-2s}", "timeout": "${HEALTH_TIMEOUT:-5s}", "retries": 5,
            "start_period": "1200s"}
NFT_SAMPLE = "nft list table ip kube-proxy 2>/dev/null | grep -E 'chain service-|goto endpoint-|^[[:space:]]*}'"
# kube-proxy's --min-sync-period default: a change waits at most this long for the sync that
# programs it, when the previous sync was less than this long ago (its BoundedFrequencyRunner).
MIN_SYNC_PERIOD_S = 1.0
NODE_MONITOR_GRACE_S = 40.0    # kube-controller-manager's --node-monitor-grace-period
# One sync's own time: 35-73 ms on this host's kernel (docs/facts/kubernetes.md); allowed ten
# times that, or what kube-proxy's log says the sync took when that is longer: in a TCG guest,
# where each ipset and iptables-restore is a process on one emulated CPU, 8.6-17 s.
SYNC_BUDGET_S = 0.75


class KubeProxy(ControlPlane):
    name = "kube-proxy"
    acts_by_itself = True
    image = PlaneImage(IMAGE, "images/kube", "scripts/ensure-kube.sh")
    # The API server is ready 2.6 s after launch on this host, 439-529 s (and once more than 12
    # minutes) in a TCG guest with one emulated CPU shared with the lab (kube-proxy-ipvs-failover,
    # KERNEL=6.12).
    start_allowance_s = 1200.0
    settings_spec = {
        "mode": Setting("str", "auto", choices=MODES,
                        help="kube-proxy's --proxy-mode (auto: ipvs where the kernel has IPVS, else nftables)"),
        "ipvs_tcp_timeout": Setting("duration", 0.0, 0, 86400,
                                    help="--ipvs-tcp-timeout, s an idle established IPVS flow is kept (0: as is, 900)"),
        "ipvs_tcpfin_timeout": Setting("duration", 0.0, 0, 86400,
                                       help="--ipvs-tcpfin-timeout, s (0: as is, 120)"),
        "conn_reuse_mode": Setting("int", 1, choices=(0, 1),
                                   help="the director's net.ipv4.vs.conn_reuse_mode (kube-proxy leaves it "
                                        "alone on Linux >= 5.9)"),
    }

    @property
    def mode(self) -> str:
        return self.settings.get("mode", "auto")

    @property
    def needs_ipvs(self) -> bool:
        return self.mode == "ipvs"

    def table_sample(self, datapath: str) -> str:
        """Where kube-proxy may run in nftables mode, its service and endpoint chains (a process per
        sample: on the host's kernel that is cheap); IPVS's own table otherwise."""
        return "" if datapath == "ipvs" and self.mode != "nftables" else NFT_SAMPLE

    def lab_settings(self) -> dict[str, str]:
        return {"LB_CONTROL": self.name, "LB_EXPIRE_NODEST_CONN": "1", "LB_EXPIRE_QUIESCENT_TEMPLATE": "1",
                "LB_CONN_REUSE_MODE": str(self.settings.get("conn_reuse_mode", 1))}

    def version_commands(self) -> VersionCommands:
        return (("etcd", API_SERVICE, ("etcd", "--version")),
                ("kube-apiserver", API_SERVICE, ("kube-apiserver", "--version")),
                ("kube-proxy", PROXY_SERVICE, ("kube-proxy", "--version")))

    def services(self, addresses: Addresses, database: PromotingDatabase, servers: Sequence[str]) -> dict[str, Any]:
        vip, back = addresses[DIRECTOR][FRONT], addresses[DIRECTOR][BACK]
        api_address = f"{back.rsplit('.', 1)[0]}.{API_HOST}"
        api = f"{api_address}:{API_PORT}"
        first = ",".join(f"{service}:{port}={addresses[SERVICE_SERVERS[service][0]][BACK]}"
                         for service, port in SERVICE_PORTS.items() if SERVICE_SERVERS[service][0] in servers)
        common = {"KUBE_API": api, "KUBE_NODE": DIRECTOR, "KUBE_NODE_IP": back, "KUBE_VIP": vip,
                  "KUBE_SERVICES": first, "KUBE_SERVICE_RANGE": f"{vip.rsplit('.', 1)[0]}.0/24"}
        kube: dict[str, Any] = {"like": DIRECTOR, "image": IMAGE, "unset": ["healthcheck", "sysctls", "cap_add", "depends_on"]}
        return {
            # lbctl programs no service: kube-proxy does
            DIRECTOR: {"environment": {"LB_CONTROL": self.name, "LB_SERVICES": ""}},
            API_SERVICE: {**kube, "entrypoint": ["kube-api-start"], "environment": common,
                          "addresses": {BACK: api_address}, "unset": kube["unset"] + ["networks"],
                          "healthcheck": {"test": ["CMD", "test", "-f", "/run/kube/ready"], **STARTING}},
            PROXY_SERVICE: {**kube, "entrypoint": ["kube-proxy-start"], "network_mode": f"service:{DIRECTOR}",
                            "cap_add": ["NET_ADMIN"],
                            "unset": kube["unset"] + ["networks", "hostname"],
                            "environment": {**common, "KUBE_PROXY_MODE": self.mode,
                                            "KUBE_IPVS_TCP_TIMEOUT": _duration(self.settings.get("ipvs_tcp_timeout", 0)),
                                            "KUBE_IPVS_TCPFIN_TIMEOUT": _duration(self.settings.get("ipvs_tcpfin_timeout", 0))},
                            "healthcheck": {"test": ["CMD", "bash", "-c", SYNCED], **STARTING},
                            "depends_on": {DIRECTOR: {"condition": "service_started"},
                                           API_SERVICE: {"condition": "service_started"}}},
        }

    def changes(self, run: RunFiles) -> list[DirectorChange]:
        """Each EndpointSlice write (the kube-api container's log) and the kube-proxy sync that
        programmed it (kube-proxy's log: the sync's start and its elapsed time), bounded by the
        director's IPVS table as sampled, where there is one."""
        writes = kube_proxy_log.parse_writes(run.read(run.service_log(API_SERVICE)))
        syncs = kube_proxy_log.parse_syncs(run.read(run.service_log(PROXY_SERVICE)))
        table = run.read(run.director_table(DIRECTOR))
        samples = (kube_proxy_log.parse_nft_samples(table) if mode_ran(run) == "nftables"
                   else director_table.parse_samples(table))
        return [kube_proxy_log.bounded_by_table(change, samples)
                for change in kube_proxy_log.changes(writes, syncs, SERVICE_PORTS)]

    def progress(self, lab: PlanesLab) -> Any:
        return kube_proxy_metrics.parse(lab.exec(PROXY_SERVICE, ["bash", "-c", SYNC_METRICS], timeout=30).stdout)

    def caught_up(self, lab: PlanesLab, before: Any) -> bool:
        return kube_proxy_metrics.caught_up(before, self.progress(lab))

    def change_by_model(self, director: str | None = None, node_grace_s: float | None = None) -> NoticeWindow:
        """A lost node: the endpoint controller turns its endpoints not ready when the node-monitor
        grace period ends, then kube-proxy reprograms the director at its next sync."""
        grace = NODE_MONITOR_GRACE_S if node_grace_s is None else node_grace_s
        return NoticeWindow(grace + MIN_SYNC_PERIOD_S / 2, grace, grace + MIN_SYNC_PERIOD_S + SYNC_BUDGET_S,
                            f"the node-monitor grace period {grace:g} s, then kube-proxy's next sync (min-sync-period "
                            f"{MIN_SYNC_PERIOD_S:g} s)")

    def lb_noticed(self, change: DirectorChange, death_t: float) -> NoticeWindow:
        """The endpoint controller's delay (the harness writes the slice when the fault says: a
        node's grace period, a pod's deletion), then kube-proxy's: the next sync, within its
        min-sync-period, and the sync itself."""
        written = max(0.0, (change.cause_t if change.cause_t is not None else change.t) - death_t)
        sync_s = max(SYNC_BUDGET_S, change.took_s or 0.0)
        took = f"that sync took {sync_s:.2f} s by its log" if sync_s > SYNC_BUDGET_S else "one sync 35-73 ms: docs/facts/kubernetes.md"
        return NoticeWindow(written + 0.05, written, written + MIN_SYNC_PERIOD_S + sync_s,
                            f"the EndpointSlice written {written:.2f} s after the death, then kube-proxy's next "
                            f"sync (min-sync-period {MIN_SYNC_PERIOD_S:g} s, {took})")

    def change_for(self, director: str, changes: Sequence[DirectorChange], port: int,
                   after_t: float) -> DirectorChange | None:
        return next((c for c in changes if c.backend and c.backend.endswith(f":{port}") and c.t >= after_t), None)

    def effect_on(self, effect: Effect, director: str, changes: Sequence[DirectorChange], t_fault: float) -> Effect:
        """Neither mode turns a blackhole into anything else: IPVS keeps the vanished backend at
        weight 0 while the blackholed flow is still counted against it (its retransmissions keep
        the entry alive), and nftables keeps the flow's conntrack DNAT to it."""
        return effect


def _duration(seconds: float) -> str:
    return f"{float(seconds):g}s"


def mode_ran(run: RunFiles) -> str | None:
    """The mode kube-proxy ran in, from its log ('ipvs', 'nftables'), or None."""
    return kube_proxy_log.mode(run.read(run.service_log(PROXY_SERVICE)))

