"""Each cell's connects from the fault on, where its client connects by name: the address each one
went to (the name's old one or its new one), in order, and how long each cost."""
from collections.abc import Iterable, Mapping
from typing import Any

from ..blocks import Block, Table, seconds

TITLE = "Reconnects: where each connect went, and what it cost"
READS = {"cells": ("reconnects",), "signals": ("reconnects",)}
HEADER = ["cell", "connects", "failed, in order", "got through to", "at"]


NOT_LOGGED = "an address its client does not log"


def _where(names: Mapping[str, str], address: str | None) -> str:
    """What the address was; a host list's failed connect names each address it tried, in order."""
    if address is None:
        return NOT_LOGGED
    return " then ".join(names.get(one, one) for one in address.split(", "))


def _failed(tries: Iterable[Mapping[str, Any]], names: Mapping[str, str]) -> str:
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


def rows(summary: Mapping[str, Any]) -> list[list[Any]]:
    names = (summary.get("signals", {}).get("reconnects") or {}).get("addresses", {})
    found = []
    for cell in summary.get("cells", []):
        tries = cell.get("reconnects")
        if not tries:
            continue
        failed = [t for t in tries if t["error"] is not None]
        through = [t for t in tries if t["error"] is None]
        last = through[-1] if through else None
        found.append([cell["cell"], str(len(tries)), _failed(failed, names) or "—",
                      " then ".join(_where(names, t["address"]) for t in through) or "—",
                      seconds(None if last is None else last["at_s"] + last["took_s"])])
    return found


def blocks(summary: Mapping[str, Any]) -> list[Block]:
    found = rows(summary)
    if not found:
        return []
    run = summary["signals"]["reconnects"]
    names = run["addresses"]
    words = "; ".join(f"{address}: {what}" for address, what in names.items())
    silent = run.get("silent")
    old = ("met the silent host and lasted until its connect timeout, TCP_USER_TIMEOUT or the kernel's SYN "
           "retries ended it" if silent is None or silent else "reached the old primary, still up")
    return [Table(HEADER, found),
            f"Each connect resolves the name again, through the client's own cache if it has one and nscd if "
            f"the clients' host runs it (cache: nscd); one that got the old address {old}. A client that "
            f"connected more than once is on the last it got through to (Connector/J listing hosts connects "
            f"to the next host at a failure, and its next connection again to its first). Times are seconds after the fault "
            f"(\"at\": when the last connect that got through was made). {words}."]
