"""Azure Standard Load Balancer, emulated (cloud_lb.py): a TCP probe every 15 s (intervalInSeconds,
at least 5), the target out after probe_threshold failures in a row; flows to a backend whose
probes fail continue (Standard SKU: "all TCP flows continue"): a dead backend's flows blackhole.
A probe is taken to fail when it gets no answer within its interval. probe_threshold's default here
is 1: set the one your probe has."""
from .base import Setting
from .cloud_lb import KEPT, CloudLb


class AzureStandard(CloudLb):
    name = "azure-standard"
    source = ("Azure: Load Balancer health probes (learn.microsoft.com/azure/load-balancer/"
              "load-balancer-custom-probe-overview) and the probe's intervalInSeconds and probeThreshold")
    settings_spec = {
        "interval": Setting("duration", 15.0, 5, 3600, help="intervalInSeconds (default 15, at least 5)"),
        "unhealthy_threshold": Setting(int, 1, 1, 100, help="probeThreshold: failed probes in a row (the lab's "
                                                            "default 1: set yours)"),
    }

    def existing_flows(self):
        return KEPT
