"""`make explain KUBE_PROXY=ipvs|nftables [NODE_GRACE_S=40]`: kube-proxy in front, in plain words
(harness/control/kube_proxy.py): when it stops sending new flows to a lost node's backend, and
what its old flows see in each mode."""
from ..control.kube_proxy import MIN_SYNC_PERIOD_S, NODE_MONITOR_GRACE_S as DEFAULT_GRACE_S

MODES = ("ipvs", "nftables")


def lines(mode: str, grace_s: float | None) -> list[str]:
    grace = DEFAULT_GRACE_S if grace_s is None else grace_s
    found = ["", f"kube-proxy in front, {mode} mode. When a node is lost, nothing tells the endpoint controller until",
             f"the node-monitor grace period ({grace:g} s) ends: then the backend's endpoint turns not ready and",
             f"kube-proxy reprograms the director at its next sync (within its min-sync-period, {MIN_SYNC_PERIOD_S:g} s;",
             f"one sync takes 35-73 ms on this host): new connections go elsewhere {grace:g}-{grace + MIN_SYNC_PERIOD_S:g} s "
             "after the death."]
    if mode == "ipvs":
        found += ["IPVS mode drains it (\"graceful termination\"): the backend stays at weight 0 while it has",
                  "connections, and the blackholed flow's own retransmissions keep its connection alive, so",
                  "expire_nodest_conn=1 (which kube-proxy sets) never applies: the flow is forwarded to the lost"
                  " node until the client gives up."]
    else:
        found += ["nftables mode has no drain: the endpoint leaves the service's chain at once, but the flow's",
                  "conntrack entry keeps its DNAT to the lost node until the client gives up."]
    found.append("Either way the client waits for its own limit (kubernetes#71358, #77903; tcp_retries2=8 was "
                 "proposed there).")
    return found
