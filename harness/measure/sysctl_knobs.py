"""The per-namespace sysctls a client cell can turn, and what a new namespace starts with (the kernel's defaults)."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class SysctlKnob:
    sysctl: str             # the per-network-namespace sysctl it sets
    minimum: int
    maximum: int
    kernel_default: int     # what a new namespace starts with
    abbreviation: str       # how container names spell it: r5, syn2, ...
    since: str | None = None       # the Linux release that added it, when that is recent

    @property
    def proc_path(self) -> str:
        return "/proc/sys/" + self.sysctl.replace(".", "/")


SYSCTL_KNOBS = {
    "tcp_retries2": SysctlKnob("net.ipv4.tcp_retries2", 1, 255, 15, "r"),
    "tcp_syn_retries": SysctlKnob("net.ipv4.tcp_syn_retries", 1, 127, 6, "syn"),
    "tcp_keepalive_time": SysctlKnob("net.ipv4.tcp_keepalive_time", 1, 32767, 7200, "kt"),
    "tcp_keepalive_intvl": SysctlKnob("net.ipv4.tcp_keepalive_intvl", 1, 32767, 75, "ki"),
    "tcp_keepalive_probes": SysctlKnob("net.ipv4.tcp_keepalive_probes", 1, 127, 9, "kp"),
    # The largest RTO (the backoff's cap, and the tcp_retries2 budget's unit past the doubling part).
    "tcp_rto_max_ms": SysctlKnob("net.ipv4.tcp_rto_max_ms", 1000, 120000, 120000, "rmax", since="6.15"),
    # How many SYN retransmissions stay 1 s apart before backing off (connects only).
    "tcp_syn_linear_timeouts": SysctlKnob("net.ipv4.tcp_syn_linear_timeouts", 0, 127, 4, "synlin", since="6.5"),
}
KERNEL_DEFAULTS = {name: knob.kernel_default for name, knob in SYSCTL_KNOBS.items()}
