"""The knobs a client cell can turn, and the kernel's defaults for them."""
from ..measure.sysctl_knobs import KERNEL_DEFAULTS, SYSCTL_KNOBS, SysctlKnob  # noqa: F401  (the scenario's names for them)

# The client's link, shaped with tc netem on its side (where the kernel has sch_netem).
# (netem word, unit, minimum, maximum, name abbreviation); jitter is the delay's second argument.
LINK_KNOBS = {"link_delay_ms": ("delay", "ms", 0, 10_000, "d"), "link_jitter_ms": ("", "ms", 0, 10_000, "j"),
              "link_loss_pct": ("loss", "%", 0, 100, "loss")}
