"""Azure Standard Load Balancer, emulated (cloud_lb.py): a TCP probe every 15 s (intervalInSeconds,
at least 5), the target out after probe_threshold failures in a row; flows to a backend whose
probes fail continue (Standard SKU: "all TCP flows continue"): a dead backend's flows blackhole.
A probe is taken to fail when it gets no answer within its interval. probe_threshold's default here
is 1: set the one your probe has. A flow idle past the rule's idle timeout (4 minutes by default,
4-100) is dropped without a word; with TCP reset on idle (enableTcpReset) both ends get a reset at
the timeout, emulated as a reset of the flow's next packet (what the client sees on its next send)."""
from .base import Setting
from .cloud_lb import KEPT, RESET, CloudLb


class AzureStandard(CloudLb):
    name = "azure-standard"
    source = ("Azure: Load Balancer health probes (learn.microsoft.com/azure/load-balancer/"
              "load-balancer-custom-probe-overview) and the probe's intervalInSeconds and probeThreshold")
    source_idle = ("Azure: Load Balancer TCP reset and idle timeout (learn.microsoft.com/azure/load-balancer/"
                   "load-balancer-tcp-reset)")
    settings_spec = {
        "interval": Setting("duration", 15.0, 5, 3600, help="intervalInSeconds (default 15, at least 5)"),
        "unhealthy_threshold": Setting("int", 1, 1, 100, help="probeThreshold: failed probes in a row (the lab's "
                                                            "default 1: set yours)"),
        "idle_timeout": Setting("duration", 240.0, 240, 6000, help="idleTimeoutInMinutes as seconds (4-100 min, "
                                                                 "default 4): a flow idle that long is forgotten"),
        "tcp_reset": Setting("bool", False, help="enableTcpReset: a forgotten flow is reset, not dropped without a "
                                               "word (default off)"),
    }

    def existing_flows(self) -> str:
        return KEPT

    def forgotten_flows(self) -> str | None:
        return RESET if self.settings.get("tcp_reset") else "drop"
