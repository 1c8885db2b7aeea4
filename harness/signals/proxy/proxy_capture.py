"""What a proxy director sent its clients when it ended their sessions, from a packet capture on
the director (`tcpdump -tt -n -l -i any` of FIN and RST segments, a line each): the witness of
what a client received, outside the harness and the client alike."""
import dataclasses
import re
from collections.abc import Container, Iterable

# "1795935113.750123 eth0  Out IP 10.213.1.10.3306 > 10.213.1.20.56330: Flags [F.], seq 1, ..."
SEGMENT_RE = re.compile(r"^(?P<t>\d+\.\d+) .*?IP (?P<src>[\d.]+)\.(?P<sport>\d+) > (?P<dst>[\d.]+)\.(?P<dport>\d+): "
                        r"Flags \[(?P<flags>[^\]]+)\]")


@dataclasses.dataclass(frozen=True)
class Segment:
    t: float
    source: str            # 'address:port'
    destination: str
    flags: str             # tcpdump's: 'F.', 'R', 'R.', 'FP.'

    @property
    def what(self) -> str:
        return "RST" if "R" in self.flags else "FIN"


def segments(text: str) -> list[Segment]:
    found = []
    for line in text.splitlines():
        m = SEGMENT_RE.match(line)
        if m and ("F" in m["flags"] or "R" in m["flags"]):
            found.append(Segment(float(m["t"]), f"{m['src']}:{m['sport']}", f"{m['dst']}:{m['dport']}", m["flags"]))
    return found


def closes_to(found: Iterable[Segment], client: str, service_ports: Container[int]) -> list[Segment]:
    """The FINs and RSTs the director sent a client ('address:port') from one of its services'
    ports, in order. The port alone is not enough: another client, or the director's own leg to a
    server, may have the same port number."""
    return [s for s in found if s.destination == client and int(s.source.rsplit(":", 1)[1]) in service_ports]


def told(sent: Iterable[Segment]) -> str | None:
    """What the client was told, in words: 'FIN', 'RST', or 'FIN then RST' (HAProxy's option
    nolinger: a FIN, and a RST a fraction of a millisecond behind it)."""
    kinds = list(dict.fromkeys(s.what for s in sent))
    return " then ".join(kinds) if kinds else None
