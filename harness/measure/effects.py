"""What a fault does to the flows that exist when it lands. Faults declare it in the event they
write; the kernel model reads it, never a fault's name."""
import dataclasses
from typing import Any

BLACKHOLE = "blackhole"              # packets of existing flows vanish; nothing answers
PARTITION = "partition"              # packets dropped both ways until healed
RESET = "reset"                      # existing flows get a TCP reset (after `after_s`: a drain)
APP_HANG = "app_hang"                # the peer's kernel ACKs, its application never answers
LB_FORGETS_FLOW = "lb_forgets_flow"  # the director forgets flows idle for `idle_timeout_s`
NONE = "none"                        # a reconfiguration existing flows do not notice
KINDS = (BLACKHOLE, PARTITION, RESET, APP_HANG, LB_FORGETS_FLOW, NONE)


@dataclasses.dataclass(frozen=True)
class Landing:
    """When a fault took effect, where it knows more closely than its step's start and duration
    (the director reports when its rules landed): between landed_t and landed_t + uncertainty_s;
    and what it read on the way (seen), kept in the fault's event. None: not known."""
    landed_t: float | None = None
    uncertainty_s: float | None = None
    seen: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True)
class Close:
    """A proxy in the middle closing the client's connection: APP_HANG's end, from the proxy's side."""
    at_s: float                      # from then on ...
    by_s: float                      # ... by then at the latest
    from_send: bool                  # counted from the first request sent after the fault, not from the fault
    basis: str                       # which of the proxy's limits it is
    expected_s: float | None = None  # when it is expected (None: halfway between at_s and by_s)


@dataclasses.dataclass(frozen=True)
class Effect:
    kind: str
    after_s: float = 0.0             # RESET: old flows keep working this long first
    idle_timeout_s: float | None = None     # LB_FORGETS_FLOW
    reset_at_s: float | None = None         # BLACKHOLE: the load balancer resets the flows from then on (its
                                     # control plane removed the server with expire_nodest_conn=1) ...
    reset_by_s: float | None = None         # ... at the latest from then on (when that is known only so closely)
    resume_at_s: float | None = None        # BLACKHOLE: the flows go on from then on (a backup director that has
    resume_by_s: float | None = None        # them from connection sync took the VIP over), by resume_by_s at the latest
    starts_at_s: float | None = None        # the effect begins this long after the fault, not with it: the fault
    starts_by_s: float | None = None        # killed nothing, a control plane's change did (a live server taken out
                                     # by its false alarm), by starts_by_s at the latest
    closes: tuple[Close, ...] = ()   # APP_HANG: what may close the client's connection (a proxy's limits, Close)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"effect must be one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.kind == LB_FORGETS_FLOW and self.idle_timeout_s is None:
            raise ValueError("an effect of a director forgetting idle flows needs their idle_timeout_s")
        object.__setattr__(self, "closes", tuple(c if isinstance(c, Close) else Close(**c) for c in self.closes))

    @property
    def flows_notice(self) -> bool:
        """Existing flows notice this fault: a run's times count from the first such fault (a
        reconfiguration before the failover, like a replication cut, prepares it)."""
        return self.kind != NONE

    def to_record(self) -> dict[str, Any]:
        """The effect as written into a fault event: only what differs from the defaults."""
        record: dict[str, Any] = {"kind": self.kind}
        if self.after_s:
            record["after_s"] = self.after_s
        if self.idle_timeout_s is not None:
            record["idle_timeout_s"] = self.idle_timeout_s
        if self.reset_at_s is not None:
            record["reset_at_s"] = self.reset_at_s
        if self.reset_by_s is not None:
            record["reset_by_s"] = self.reset_by_s
        for key in ("resume_at_s", "resume_by_s", "starts_at_s", "starts_by_s"):
            if getattr(self, key) is not None:
                record[key] = getattr(self, key)
        if self.closes:
            record["closes"] = [dataclasses.asdict(c) for c in self.closes]
        return record

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "Effect":
        return cls(**record)
