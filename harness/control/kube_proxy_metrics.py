"""kube-proxy's own account of whether it has programmed what changed (pure): its Prometheus
metrics (127.0.0.1:10249/metrics in the director's network namespace). Read before a run's
steps and again while it observes: the run watches on until kube-proxy has seen an EndpointSlice
change since then and finished the sync it queued for it (in a TCG guest that sync can end 20 s
after the write, after the clients have given up on their own)."""
import dataclasses
import re

# kube-proxy 1.34, pkg/proxy/metrics/metrics.go and endpointschangetracker.go:
#   endpoint_changes_total    +1 for each EndpointSlice update it receives (its address family's)
#   endpoint_changes_pending  updates received and not yet taken by a sync (0 when a sync takes them)
#   last_queued_timestamp     when a sync was last asked for (a change arrived)
#   last_timestamp            when a sync last ended having programmed the kernel
METRIC_RE = re.compile(r'^kubeproxy_sync_proxy_rules_(\w+?)(?:\{([^}]*)\})? (\S+)$', re.M)
FAMILY = 'ip_family="IPv4"'


@dataclasses.dataclass(frozen=True)
class SyncState:
    endpoint_changes_total: float
    endpoint_changes_pending: float
    last_queued_t: float       # kube-proxy's clock, as are last_synced_t
    last_synced_t: float


def parse(text: str) -> SyncState:
    """SyncState from the metrics page's text; ValueError when one of its four figures is missing."""
    found = {}
    for name, labels, value in METRIC_RE.findall(text):
        if labels in ("", FAMILY):
            found[name] = float(value)
    wanted = {"endpoint_changes_total": "endpoint_changes_total",
              "endpoint_changes_pending": "endpoint_changes_pending",
              "last_queued_t": "last_queued_timestamp_seconds",
              "last_synced_t": "last_timestamp_seconds"}
    missing = [metric for metric in wanted.values() if metric not in found]
    if missing:
        raise ValueError(f"kube-proxy's metrics lack {', '.join(missing)}")
    return SyncState(**{field: found[metric] for field, metric in wanted.items()})


def caught_up(before: SyncState, now: SyncState) -> bool:
    """Has kube-proxy, by `now`, received an EndpointSlice change since `before` and ended a sync
    that took every change it had received? (A sync that was under way when the change came ends
    after it was queued but leaves it pending: that is not caught up.)"""
    return (now.endpoint_changes_total > before.endpoint_changes_total
            and now.endpoint_changes_pending == 0
            and now.last_synced_t >= now.last_queued_t)
