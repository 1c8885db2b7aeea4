"""Google Cloud's internal passthrough Network Load Balancer, emulated (cloud_lb.py): health
checks every 5 s, 5 s each, unhealthy after 2 failures; established TCP connections persist on an
unhealthy backend by default (connectionPersistenceOnUnhealthyBackends DEFAULT_FOR_PROTOCOL):
they go on to the dead backend. NEVER_PERSIST sends their packets to a healthy backend, which has no
such connection and resets it: emulated as a reset at the next packet."""
from .base import Setting
from .cloud_lb import KEPT, RESET, CloudLb

PERSISTENCE = ("DEFAULT_FOR_PROTOCOL", "NEVER_PERSIST", "ALWAYS_PERSIST")


class GcpPassthrough(CloudLb):
    name = "gcp-passthrough"
    source = ("Google Cloud: health checks (checkIntervalSec, timeoutSec, unhealthyThreshold: "
              "cloud.google.com/compute/docs/reference/rest/v1/healthChecks) and connection persistence on "
              "unhealthy backends (cloud.google.com/load-balancing/docs/internal)")
    settings_spec = {
        "interval": Setting("duration", 5.0, 1, 300, help="checkIntervalSec (default 5)"),
        "timeout": Setting("duration", 5.0, 1, 300, help="timeoutSec (default 5, at most checkIntervalSec)"),
        "unhealthy_threshold": Setting("int", 2, 1, 10, help="unhealthyThreshold (default 2)"),
        "persistence_on_unhealthy": Setting("str", "DEFAULT_FOR_PROTOCOL", choices=PERSISTENCE,
                                            help="connectionPersistenceOnUnhealthyBackends"),
    }

    def existing_flows(self) -> str:
        return RESET if self.settings.get("persistence_on_unhealthy") == "NEVER_PERSIST" else KEPT
