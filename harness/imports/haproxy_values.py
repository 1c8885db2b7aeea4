"""HAProxy's values as its manual writes them (times with their units, whole numbers), and where each
setting the importer read was said (said.py), under HAProxy's rule for which saying wins."""
import re
from typing import Any

from ..errors import InvalidInput
from .haproxy_sections import Line
from .said import SaidRecord, set_said

TIME = re.compile(r"^(\d+(?:\.\d+)?)(us|ms|s|m|h|d)?$")
UNIT_S = {"us": 1e-6, "ms": 1e-3, None: 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
RULE = "HAProxy: the last said, a server's own over default-server's, a backend's over its defaults'"


def count(text: str | None, where: str, what: str) -> int:
    """A whole number HAProxy reads (retries, fall, rise, srvtcpka-cnt)."""
    if text is None or not re.fullmatch(r"[0-9]+", text):
        raise InvalidInput(f"{where}: {what} {text or ''}: takes a whole number")
    return int(text)


def seconds(text: str | None, where: str) -> float:
    if text is None:
        raise InvalidInput(f"{where}: a time is missing (a number with us, ms, s, m, h or d)")
    m = TIME.match(text)
    if not m:
        raise InvalidInput(f"{where}: {text!r}: not one of HAProxy's times (a number with us, ms, s, m, h or d)")
    return round(float(m.group(1)) * UNIT_S[m.group(2)], 6)


def set_option(found: SaidRecord, key: str, value: Any, line: Line) -> None:
    set_said(found, key, value, f"{line.where}: {' '.join(line.words)}", RULE)
