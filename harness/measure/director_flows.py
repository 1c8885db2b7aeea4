"""The director's flow table as it printed it: `ipvsadm -Lnc` (ipvs) or `conntrack -L` (nftables),
alone (a snapshot) or in blocks headed '@ <unix time>' (the flow sampler)."""
import dataclasses
import re
from collections.abc import Iterable

from .sample_blocks import blocks

CONNTRACK_RE = re.compile(r"^tcp\s+\d+\s+(?P<expires>\d+)\s+(?P<state>[A-Z_]+)\s+src=(?P<client>\S+) dst=(?P<vip>\S+) "
                          r"sport=(?P<cport>\d+) dport=(?P<vport>\d+) src=(?P<backend>\S+) dst=\S+ sport=(?P<bport>\d+)")


@dataclasses.dataclass(frozen=True)
class Flow:
    client: str              # 10.213.1.129:43210
    vip: str                 # 10.213.1.10:3306
    backend: str             # 10.213.2.21:3306
    state: str               # ESTABLISHED, ...
    expires_s: float         # what the table says is left before it forgets the flow


def _seconds(text: str) -> int:
    minutes, _, seconds = text.partition(":")
    return int(minutes) * 60 + int(seconds)


def parse_table(text: str) -> list[Flow]:
    """One snapshot's TCP flows, whichever datapath printed it."""
    flows = []
    for line in text.splitlines():
        words = line.split()
        if len(words) == 6 and words[0] == "TCP" and ":" in words[1]:
            flows.append(Flow(words[3], words[4], words[5], words[2], _seconds(words[1])))
        elif (m := CONNTRACK_RE.match(line)):
            flows.append(Flow(f"{m['client']}:{m['cport']}", f"{m['vip']}:{m['vport']}",
                              f"{m['backend']}:{m['bport']}", m["state"], int(m["expires"])))
    return flows


def parse_samples(text: str) -> list[tuple[float, list[Flow]]]:
    """[(t, [Flow, ...]), ...] from the flow sampler's output."""
    return blocks(text, parse_table)


def of_client(flows: Iterable[Flow], address: str, port: int | str) -> list[Flow]:
    """The flows of one client connection, by its address and local port (two clients' kernels
    pick their local ports apart, so a port alone may name two connections)."""
    return [f for f in flows if f.client == f"{address}:{port}"]
