"""Each cell's connects from the fault on, where its client connects by name: the address each one
went to (the name's old one or its new one), in order, and how long each cost."""
from ..blocks import Table, seconds

TITLE = "Reconnects: where each connect went, and what it cost"
READS = {"cells": ("reconnects",), "signals": ("reconnects",)}
HEADER = ["cell", "connects", "failed, in order", "got through to", "at"]


NOT_LOGGED = "an address its client does not log"


def _where(names, address):
    """What the address was; a host list's failed connect names each address it tried, in order."""
    if address is None:
        return NOT_LOGGED
    return " then ".join(names.get(one, one) for one in address.split(", "))


def _failed(tries, names):
    """The failed connects in order, a run of alike ones once with its count: '5 x 3.0 s to X (ERR)'."""
    runs: list[list] = []
    for t in tries:
        key = (round(t["took_s"], 1), _where(names, t["address"]), t["error"])
        if runs and runs[-1][0] == key:
            runs[-1][1] += 1
        else:
            runs.append([key, 1])
    return "; ".join(f"{'' if count == 1 else f'{count} x '}{key[0]:.1f} s to {key[1]} ({key[2]})"
                     for key, count in runs)


def rows(summary):
    names = (summary.get("signals", {}).get("reconnects") or {}).get("addresses", {})
    found = []
    for cell in summary.get("cells", []):
        tries = cell.get("reconnects")
        if not tries:
            continue
        failed = [t for t in tries if t["error"] is not None]
        through = next((t for t in tries if t["error"] is None), None)
        found.append([cell["cell"], str(len(tries)), _failed(failed, names) or "—",
                      "—" if through is None else _where(names, through["address"]),
                      seconds(None if through is None else through["at_s"] + through["took_s"])])
    return found


def blocks(summary):
    found = rows(summary)
    if not found:
        return []
    names = summary["signals"]["reconnects"]["addresses"]
    words = "; ".join(f"{address}: {what}" for address, what in names.items())
    return [Table(HEADER, found),
            f"Each connect resolves the name again, through the client's own cache if it has one and nscd if "
            f"the clients' host runs it (cache: nscd); one that "
            f"got the old address met the silent host and lasted until its connect timeout, TCP_USER_TIMEOUT "
            f"or the kernel's SYN retries ended it. Times are seconds after the fault. {words}."]
