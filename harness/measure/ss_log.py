"""`ss -tino` samples (blocks headed '@ <unix time>', each closed by '@. <unix time>' once ss had
returned: ss read the sockets between the two) -> per-socket retransmission evidence."""
import collections
import dataclasses
import functools
import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any


@dataclasses.dataclass(frozen=True)
class SocketSample:
    t: float
    state: str
    local_port: int
    rto_ms: float | None = None
    rtt_ms: float | None = None         # the smoothed round trip (rtt:<srtt>/<rttvar>)
    backoff: int = 0
    retrans_total: int = 0       # retrans:<unacked>/<total>
    timer: str = ""              # e.g. 'on,1.2sec,3' (the RTO timer, expiry, retransmits)
    local: str = ""              # the local address, 10.213.5.128:51548
    t_read: float | None = None         # when ss had returned (None in samples from before it was stamped)


def _number(pattern: str, text: str, kind: Callable[[str], Any] = float, default: Any = None) -> Any:
    m = re.search(pattern, text)
    return kind(m.group(1)) if m else default


def parse(text: str) -> list[SocketSample]:
    samples: list[SocketSample] = []
    t: float | None = None
    header: str | None = None

    def flush(info: str = "") -> None:
        # only called with a header line, read after a block's '@ <time>' line
        assert header is not None and t is not None
        fields = header.split()
        local = fields[3] if len(fields) > 4 else ""
        port = local.rsplit(":", 1)[-1]
        if port.isdigit():
            samples.append(SocketSample(
                t=t, state=fields[0], local_port=int(port),
                rto_ms=_number(r"\brto:([\d.]+)", info),
                rtt_ms=_number(r"\brtt:([\d.]+)/", info),
                backoff=_number(r"\bbackoff:(\d+)", info, int, 0),
                retrans_total=_number(r"\bretrans:\d+/(\d+)", info, int, 0),
                timer=timer.group(1) if (timer := re.search(r"timer:\(([^)]*)\)", header)) else "", local=local))

    block = 0                    # where the samples of the current block start
    for line in text.splitlines():
        if line.startswith("@. "):
            if header:
                flush()
            header, read = None, float(line[3:])
            samples[block:] = [dataclasses.replace(sample, t_read=read) for sample in samples[block:]]
        elif line.startswith("@ "):
            if header:
                flush()
            header, t, block = None, float(line[2:]), len(samples)
        elif line[:1].isspace() and header:
            flush(line)
            header = None
        elif line.strip() and t is not None:
            if header:
                flush()
            header = line
    if header:
        flush()
    return samples


# iproute2's print_ms_timer: '340ms', '1.632ms' (older ss) or '1.632sec' (newer) for 1632 ms,
# '12sec', '2min12sec', '10min'; nothing once the timer is due.
_TIMER_LEFT = re.compile(r"(?:(\d+)min)?(?:(\d+)(?:sec|\.))?(?:(\d+)(?:ms|sec))?")


def timer_left_s(text: str) -> float:
    """Seconds left on a timer as ss prints it."""
    m = _TIMER_LEFT.fullmatch(text)
    if m is None:
        raise ValueError(f"not an ss timer: {text!r}")
    minutes, secs, msecs = (int(g or 0) for g in m.groups())
    return ((minutes * 60 + secs) * 1000 + msecs) / 1000


def retransmit_due_bracket(samples: Sequence[SocketSample]) -> tuple[float | None, float | None]:
    """(earliest, latest) time the last retransmission timer of a connection's samples can have
    been due, from every sample of that timer (the same retransmission count). Each sample says
    what was left when ss read it, somewhere between the sample's stamp and its closing stamp, so
    the timer was due no sooner than the stamp plus what was left and no later than the closing
    stamp plus it; the samples together narrow that down. A sample read once the timer was due
    (nothing left) says only that it was due by the closing stamp. earliest is None when every
    sample of the timer was read after it was due, latest None without closing stamps; (None,
    None) when no sample shows a retransmission timer."""
    timed = [s for s in samples if s.timer.startswith("on,")]
    if not timed:
        return None, None
    rung = [s for s in timed if s.timer.rsplit(",", 1)[-1] == timed[-1].timer.rsplit(",", 1)[-1]]
    lefts = [(s, timer_left_s(s.timer.split(",")[1])) for s in rung]
    dues = [s.t + left for s, left in lefts if left > 0]
    earliest = max(dues) if dues else None
    reads = [s.t_read + left for s, left in lefts if s.t_read is not None]
    latest = min(reads) if reads else None
    if earliest is not None and latest is not None:
        return earliest, max(earliest, latest)
    return earliest, latest


def first_connection(samples: list[SocketSample]) -> list[SocketSample]:
    """The samples of the first connection a port had: a later socket that took the port once
    that connection was gone starts again from SYN-SENT, and its samples are not the first's."""
    own: list[SocketSample] = []
    for sample in samples:
        if sample.state == "SYN-SENT":
            if own:
                break
            continue
        own.append(sample)
    return own


def nothing_unacked_after(samples: Iterable[SocketSample], t: float, hold_s: float = 2.0,
                          until: float | None = None) -> bool:
    """A connection still there hold_s after t on which ss never saw a retransmission timer after t
    (and before until, when given: a partition healed, the connection's traffic goes on): nothing
    it sent went unacknowledged, so nothing of it is resent."""
    after = [s for s in samples if s.t > t and (until is None or s.t < until)]
    return bool(after) and after[-1].t > t + hold_s and not any(s.timer.startswith("on") for s in after)


def for_ports(samples: Iterable[SocketSample], ports: Iterable[int]) -> list[SocketSample]:
    wanted = set(ports)
    return [s for s in samples if s.local_port in wanted]


def base_rto_s(samples: Sequence[SocketSample], t_fault: float) -> float | None:
    """The base RTO (s) the kernel used for a socket's retransmissions after t_fault: the first
    backed-off sample's rto / 2**backoff (before the 120 s cap); else the last sample before."""
    for sample in samples:
        if sample.t > t_fault and sample.backoff >= 1 and sample.rto_ms and sample.rto_ms < 120_000:
            return sample.rto_ms / 1000 / 2 ** sample.backoff
    before = [s.rto_ms for s in samples if s.t <= t_fault and s.rto_ms]
    return before[-1] / 1000 if before else None


def by_port(path: str | os.PathLike[str]) -> dict[int, list[SocketSample]]:
    """{local port: [samples]} of an ss samples file, parsed once per version of the file (a run's
    every cell reads the same file of its namespace)."""
    stat = os.stat(path)
    return _by_port(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _by_port(path: str, mtime_ns: int, size: int) -> dict[int, list[SocketSample]]:
    index: dict[int, list[SocketSample]] = collections.defaultdict(list)
    for sample in parse(Path(path).read_text()):
        index[sample.local_port].append(sample)
    return dict(index)
