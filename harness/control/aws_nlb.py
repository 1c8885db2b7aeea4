"""AWS Network Load Balancer, emulated (cloud_lb.py): TCP health checks every 30 s, 10 s each,
unhealthy after 2 failures; a target that turns unhealthy gets its client connections reset: the
NLB sends a TCP RST for packets arriving on them (target group attribute
target_health_state.unhealthy.connection_termination.enabled, on by default). A flow idle past the
listener's TCP idle timeout (350 s by default, 60-6000 s) is forgotten: a packet sent on it after
that gets a TCP RST."""
from .base import Setting
from .cloud_lb import KEPT, RESET, CloudLb


class AwsNlb(CloudLb):
    name = "aws-nlb"
    source = ("AWS: Health checks for Network Load Balancer target groups "
              "(docs.aws.amazon.com/elasticloadbalancing/latest/network/target-group-health-checks.html)")
    source_idle = ("AWS: Network Load Balancer listeners, TCP idle timeout (tcp.idle_timeout.seconds; "
                   "docs.aws.amazon.com/elasticloadbalancing/latest/network/network-load-balancers.html)")
    settings_spec = {
        "interval": Setting("duration", 30.0, 5, 300, help="HealthCheckIntervalSeconds (5-300, TCP default 30)"),
        "timeout": Setting("duration", 10.0, 2, 120, help="HealthCheckTimeoutSeconds (2-120, TCP default 10)"),
        "unhealthy_threshold": Setting("int", 2, 2, 10, help="UnhealthyThresholdCount (2-10, default 2)"),
        "connection_termination": Setting("bool", True, help="unhealthy.connection_termination.enabled: a RST for "
                                                           "the existing connections' packets (default on)"),
        "idle_timeout": Setting("duration", 350.0, 60, 6000, help="tcp.idle_timeout.seconds (60-6000, default 350): "
                                                                "a flow idle that long is forgotten, its next "
                                                                "packet reset"),
    }

    def existing_flows(self) -> str:
        return RESET if self.settings.get("connection_termination", True) else KEPT

    def forgotten_flows(self) -> str | None:
        return RESET
