"""IPVS's table of virtual and real servers as the director table sampler wrote it
(/proc/net/ip_vs, in blocks headed '@ <unix time>'; `ipvsadm -Ln` reads the same): which real
servers each virtual server had, at what weight, sample by sample."""
from collections.abc import Mapping

from .sample_blocks import blocks

Table = dict[str, dict[str, int]]     # {vip: {real server: weight}}


def _endpoint(text: str) -> str:
    """'0AD50215:0CEA' (/proc/net/ip_vs) or '10.213.2.21:3306' (ipvsadm -Ln) -> '10.213.2.21:3306'."""
    address, _, port = text.rpartition(":")
    if "." in address:
        return text
    return ".".join(str(int(address[i:i + 2], 16)) for i in range(0, 8, 2)) + f":{int(port, 16)}"


def parse_table(text: str) -> Table:
    """{vip: {real server: weight}} of one table."""
    table: dict[str, dict[str, int]] = {}
    vip = None
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "TCP":
            vip = _endpoint(words[1])
            table[vip] = {}
        elif vip and len(words) >= 4 and words[0] == "->" and ":" in words[1] and words[3].isdigit():
            table[vip][_endpoint(words[1])] = int(words[3])
    return table


def parse_samples(text: str) -> list[tuple[float, Table]]:
    """[(t, {vip: {real server: weight}}), ...]."""
    return blocks(text, parse_table)


def serves(table: Mapping[str, Mapping[str, int]], backend: str) -> bool:
    """Whether a table has `backend` as a real server at a weight above 0."""
    return any(servers.get(backend, 0) > 0 for servers in table.values())
