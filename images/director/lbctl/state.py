"""The director's desired state, kept as JSON so every lbctl call can rebuild the datapath."""
import dataclasses
import fcntl
import json
import os
import time
from contextlib import contextmanager

STATE_FILE = os.environ.get("LBCTL_STATE", "/run/lbctl/state.json")
NODEST_POLICIES = ("drop", "reset")
# What the next packet of a flow the LB forgot (idle) meets: the director's own stack, which resets
# it (IPVS; conntrack with loose pick-up off), or a silent drop (a cloud LB that forgets idle flows
# without a word; the nftables datapath only).
FORGOTTEN_POLICIES = ("reset", "drop")


def parse_endpoint(text):
    """'10.0.0.1:80' -> ('10.0.0.1', 80), with a clear error for anything else."""
    host, sep, port = text.rpartition(":")
    parts = host.split(".")
    if not sep or len(parts) != 4 or not all(p.isdigit() and int(p) < 256 for p in parts):
        raise ValueError(f"not an IPv4 address:port: {text!r}")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad port in {text!r}")
    return host, int(port)


@dataclasses.dataclass
class Removed:
    """A backend taken out of a service: its old flows are dropped or reset after drain_until."""
    backend: str
    nodest: str
    drain_until: float = 0.0

    def draining(self, now):
        return self.drain_until > now


@dataclasses.dataclass
class State:
    datapath: str = ""
    idle_timeout_s: int = 900
    forgotten_flows: str = "reset"
    services: dict = dataclasses.field(default_factory=dict)   # vip -> [backend, ...]
    removed: dict = dataclasses.field(default_factory=dict)    # vip -> [Removed, ...]

    def add(self, vip, backend):
        parse_endpoint(vip), parse_endpoint(backend)
        backends = self.services.setdefault(vip, [])
        if backend not in backends:
            backends.append(backend)
        self.removed[vip] = [r for r in self.removed.get(vip, []) if r.backend != backend]

    def remove(self, vip, backend, nodest="drop", drain_s=0.0, now=None):
        if nodest not in NODEST_POLICIES:
            raise ValueError(f"nodest must be one of {NODEST_POLICIES}, not {nodest!r}")
        if drain_s < 0:
            raise ValueError("drain must be >= 0 seconds")
        if backend not in self.services.get(vip, []):
            raise ValueError(f"{backend} is not a backend of {vip}")
        self.services[vip].remove(backend)
        now = time.time() if now is None else now
        # A drain only ends in a reset: that is what it is for.
        policy = "reset" if drain_s > 0 else nodest
        until = now + drain_s if drain_s > 0 else 0.0
        entries = [r for r in self.removed.get(vip, []) if r.backend != backend]
        self.removed[vip] = entries + [Removed(backend, policy, until)]
        return self.removed[vip][-1]

    def to_json(self):
        return json.dumps(dataclasses.asdict(self), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text):
        raw = json.loads(text)
        raw["removed"] = {vip: [Removed(**r) for r in rs] for vip, rs in raw.get("removed", {}).items()}
        return cls(**raw)


@contextmanager
def locked_state(path=STATE_FILE):
    """Load, yield for changes, and save the state under an exclusive lock."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        state = State.from_json(open(path).read()) if os.path.exists(path) else State()
        yield state
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(state.to_json())
        os.replace(tmp, path)
