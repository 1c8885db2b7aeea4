"""An operator's `sysctl -a` output (any kernel) -> the knobs the lab models, and a named line for
every other TCP, IPVS and core-network setting. Format (sysctl(8)): one `key = value` a line, the
key dotted; `sysctl -a` also prints `sysctl: permission denied on key '...'` and similar lines on
some kernels, kept as notes. Nothing in the dump is dropped without a word: each relevant key is
used, or listed as not modelled."""
import dataclasses
import re

from ..errors import InvalidInput
from ..measure.sysctl_knobs import SYSCTL_KNOBS

LINE = re.compile(r"^\s*([A-Za-z0-9_.\-/]+)\s*=\s*(.*?)\s*$")
RELEVANT = ("net.ipv4.tcp_", "net.ipv4.vs.", "net.core.")
# Settings of the director's IPVS the lab turns (a scenario's control plane or explain's knobs).
DIRECTOR = {"net.ipv4.vs.expire_nodest_conn": "EXPIRE_NODEST_CONN"}
# Settings that decide nothing about a blackholed flow's wait, and why.
NO_BEARING = {
    "net.ipv4.tcp_rmem": "buffer sizes", "net.ipv4.tcp_wmem": "buffer sizes", "net.ipv4.tcp_mem": "buffer sizes",
    "net.core.rmem_default": "buffer sizes", "net.core.rmem_max": "buffer sizes",
    "net.core.wmem_default": "buffer sizes", "net.core.wmem_max": "buffer sizes",
    "net.ipv4.tcp_congestion_control": "congestion control paces data, not the retransmission timer's budget",
    "net.ipv4.tcp_available_congestion_control": "what the kernel could load",
    "net.ipv4.tcp_allowed_congestion_control": "what the kernel could load",
    "net.ipv4.tcp_timestamps": "RTT sampling; the budget counts from the first retransmission",
    "net.ipv4.tcp_sack": "which bytes are retransmitted, not when the socket gives up",
    "net.ipv4.tcp_window_scaling": "window sizes",
    "net.core.default_qdisc": "the queueing discipline of a device",
}


@dataclasses.dataclass(frozen=True)
class SysctlDump:
    source: str
    kernel_release: str | None = None          # kernel.osrelease
    cell: tuple[tuple[str, int], ...] = ()       # ((scenario cell key, value), ...): the client's namespace knobs
    director: tuple[tuple[str, int], ...] = ()   # ((explain knob, value), ...)
    not_modelled: tuple[tuple[str, str], ...] = ()   # ((key, value), ...) of TCP/IPVS/core settings the lab does not turn
    no_bearing: tuple[tuple[str, str], ...] = ()     # ((key, why), ...)
    notes: tuple[str, ...] = ()                  # lines sysctl printed that are not settings
    others: int = 0                     # settings outside net.ipv4.tcp_*, net.ipv4.vs.*, net.core.*

    def without_an_ipvs_director(self, director_file: str) -> "SysctlDump":
        """The dump where HAProxy (director_file) is the director: its IPVS settings decide nothing."""
        why = f"the director is HAProxy ({director_file}), not IPVS"
        return dataclasses.replace(self, director=(), no_bearing=self.no_bearing + tuple(
            (sysctl, why) for sysctl, knob in DIRECTOR.items() if knob in dict(self.director)))

    def lines(self) -> list[str]:
        """What was used and what was not, a line each, for explain, plan and the replay's page."""
        out = [f"{self.source}: kernel {self.kernel_release or 'not in the dump (no kernel.osrelease)'}"]
        out += [f"{self.source}: used: {SYSCTL_KNOBS[key].sysctl} = {value} (the client's cell)" for key, value in self.cell]
        out += [f"{self.source}: used: {knob} = {value} (the director)" for knob, value in self.director]
        if self.not_modelled:
            out.append(f"{self.source}: not modelled ({len(self.not_modelled)}): "
                       + ", ".join(key for key, _ in self.not_modelled))
        if self.no_bearing:
            out.append(f"{self.source}: no bearing on a failover: "
                       + "; ".join(f"{key} ({why})" for key, why in self.no_bearing))
        out += [f"{self.source}: note: {note}" for note in self.notes]
        if self.others:
            out.append(f"{self.source}: {self.others} setting(s) outside net.ipv4.tcp_*, net.ipv4.vs.* and net.core.*: "
                       "no bearing on a failover")
        return out


def parse(text: str, source: str = "sysctl.txt") -> SysctlDump:
    by_sysctl = {knob.sysctl: key for key, knob in SYSCTL_KNOBS.items()}
    release: str | None = None
    cell: list[tuple[str, int]] = []
    director: list[tuple[str, int]] = []
    not_modelled: list[tuple[str, str]] = []
    no_bearing: list[tuple[str, str]] = []
    notes: list[str] = []
    others = 0
    # key -> (line, value) of the settings the lab reads: `sysctl -a` prints each once (some others,
    # kernel.core_modes on 7.3, a line per value)
    seen: dict[str, tuple[int, str]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith(("#", ";")):
            continue
        if raw.startswith("sysctl: "):
            notes.append(raw[len("sysctl: "):].strip())
            continue
        m = LINE.match(raw)
        if not m:
            raise InvalidInput(f"{source}:{number}: {raw.strip()[:60]!r}: not `key = value` (the output of sysctl -a)")
        key, value = m.group(1).replace("/", "."), m.group(2)
        if key in seen:
            line, first = seen[key]
            same = "the same value" if first == value else f"{first!r} there, {value!r} here"
            raise InvalidInput(f"{source}:{number}: {key}: set again (line {line}: {same}); `sysctl -a` prints a "
                               "setting the lab reads once: keep the line the machine had")
        if key == "kernel.osrelease" or key in by_sysctl or key in DIRECTOR:
            seen[key] = (number, value)
        if key == "kernel.osrelease":
            release = value
        elif key in by_sysctl:
            cell.append((by_sysctl[key], _within(by_sysctl[key], value, source, number)))
        elif key in DIRECTOR:
            director.append((DIRECTOR[key], _whole(value, source, number, key)))
        elif key in NO_BEARING:
            no_bearing.append((key, NO_BEARING[key]))
        elif key.startswith(RELEVANT):
            not_modelled.append((key, value))
        else:
            others += 1
    return SysctlDump(source, release, tuple(cell), tuple(director), tuple(not_modelled), tuple(no_bearing),
                      tuple(notes), others)


def _whole(value: str, source: str, number: int, key: str) -> int:
    if not re.fullmatch(r"-?\d+", value):
        raise InvalidInput(f"{source}:{number}: {key}: {value!r} is not a whole number")
    return int(value)


def _within(cell_key: str, value: str, source: str, number: int) -> int:
    knob = SYSCTL_KNOBS[cell_key]
    number_value = _whole(value, source, number, knob.sysctl)
    if not knob.minimum <= number_value <= knob.maximum:
        raise InvalidInput(f"{source}:{number}: {knob.sysctl}: {number_value} is outside what the kernel takes "
                           f"({knob.minimum}-{knob.maximum})")
    return number_value
