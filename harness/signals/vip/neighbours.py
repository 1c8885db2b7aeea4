"""A client namespace's neighbour entry for the VIP, as the neighbour sampler wrote it (`ip neigh
show VIP`, in blocks headed '@ <unix time>'): whose MAC answered for the VIP, sample by sample."""
from collections.abc import Iterable


def parse_samples(text: str) -> list[tuple[float, str | None]]:
    """[(t, lladdr or None), ...]."""
    samples: list[tuple[float, str | None]] = []
    t: float | None = None
    for line in text.splitlines():
        if line.startswith("@ "):
            if t is not None:
                samples.append((t, None))
            t = float(line[2:])
            continue
        words = line.split()
        if t is not None and "lladdr" in words:
            samples.append((t, words[words.index("lladdr") + 1]))
            t = None
    if t is not None:
        samples.append((t, None))
    return samples


def moves(samples: Iterable[tuple[float, str | None]], after_t: float) -> list[tuple[float, float, str]]:
    """[(since, t, the new MAC)] each time the VIP's MAC changed after after_t: it changed after
    the sample at `since` (the last with the old one) and by `t` (the first with the new one)."""
    found: list[tuple[float, float, str]] = []
    current: str | None = None
    since: float | None = None
    for t, mac in samples:
        if mac is None:
            continue
        if current is not None and since is not None and mac != current and t > after_t:
            found.append((since, t, mac))
        current, since = mac, t
    return found
